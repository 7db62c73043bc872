// SPDX-License-Identifier: GPL-3.0-or-later
// One call with an npm SDK left at its default endpoint, for `retrylab observe --proxy`
// (tests/clients/tst_client_proxy.cpp): the program is not re-pointed at the lab; the proxy variables and
// Retrylab's Node preload carry its requests there. argv[2]: "openai" (models.retrieve on
// https://api.openai.com/v1) or "s3" (GetObject, path-style, on https://s3.us-east-1.amazonaws.com).
// Each SDK's own retry loop as it ships. Exit 0 when the SDK returned a result, 1 when it threw.
import OpenAI from 'openai';
import { S3Client, GetObjectCommand } from '@aws-sdk/client-s3';

const which = process.argv[2];
try {
    if (which === 'openai') {
        const client = new OpenAI({ apiKey: 'sk-retrylab-dummy', timeout: 5000 });
        await client.models.retrieve('gpt-retrylab');
    } else if (which === 's3') {
        const client = new S3Client({
            forcePathStyle: true,
            region: 'us-east-1',
            credentials: { accessKeyId: 'AKIDRETRYLABDUMMY', secretAccessKey: 'retrylab-dummy-secret' },
            retryMode: 'standard',
        });
        const answer = await client.send(new GetObjectCommand({ Bucket: 'retrylab', Key: 'case.json' }));
        await answer.Body.transformToString();
    } else {
        console.error('proxied-sdk-client: say openai or s3');
        process.exit(2);
    }
    process.exit(0);
} catch (error) {
    console.error(`proxied-sdk-client: ${error.name}: ${error.message}`);
    process.exit(1);
}
