// SPDX-License-Identifier: GPL-3.0-or-later
// express-rate-limit (pinned in package.json) in each of its header modes on one loopback server, for
// tests/clients/tst_client_express_ratelimit.cpp: GET /draft-6, /draft-7, /draft-8 and /legacy each pass
// through a limiter of their own, 3 requests a 60 s window, then answer 200 (429 with Retry-After once the
// window's 3 are spent). Prints {"port": N} on a line once it listens; exits when its stdin ends.
import express from 'express';
import { rateLimit } from 'express-rate-limit';

const modes = {
    'draft-6': { standardHeaders: 'draft-6', legacyHeaders: false },
    'draft-7': { standardHeaders: 'draft-7', legacyHeaders: false },
    'draft-8': { standardHeaders: 'draft-8', legacyHeaders: false },
    legacy: { standardHeaders: false, legacyHeaders: true }, // X-RateLimit-*, the library's default
};

const app = express();
for (const [mode, headers] of Object.entries(modes)) {
    const limiter = rateLimit({ windowMs: 60_000, limit: 3, ...headers });
    app.get(`/${mode}`, limiter, (request, response) => response.type('text/plain').send(`ok ${mode}\n`));
}

const server = app.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
