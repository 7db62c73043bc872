// SPDX-License-Identifier: GPL-3.0-or-later
// One logical request with the openai npm package, for `retrylab conform` (tests/clients/tst_conform_npm.cpp).
// The lab answers any path, so the SDK's own calls are used as a user would: a GET is models.retrieve,
// anything else a chat completion (a POST). The SDK's retry loop is left as it ships (2 retries) except
// the per-attempt timeout, 3 s instead of 10 minutes so that a hang costs seconds (the policy variant the
// test writes says the same). Exit 0 when the SDK returned a result, 1 when it threw.
import OpenAI from 'openai';

const baseURL = process.env.RETRYLAB_BASE_URL;
const method = process.env.RETRYLAB_METHOD ?? 'GET';
const key = process.env.RETRYLAB_IDEMPOTENCY_KEY;
if (!baseURL) {
    console.error('openai-client: RETRYLAB_BASE_URL is not set (run me under retrylab conform)');
    process.exit(2);
}

const client = new OpenAI({ apiKey: 'sk-retrylab-dummy', baseURL, timeout: 3000 });
const options = key ? { headers: { 'Idempotency-Key': key } } : {};

try {
    if (method === 'GET') {
        await client.models.retrieve('gpt-retrylab', options);
    } else {
        await client.chat.completions.create(
            { model: 'gpt-retrylab', messages: [{ role: 'user', content: 'ping' }] }, options);
    }
    process.exit(0);
} catch (error) {
    console.error(`openai-client: ${error.constructor.name}: ${error.message}`);
    process.exit(1);
}
