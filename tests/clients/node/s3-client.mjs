// SPDX-License-Identifier: GPL-3.0-or-later
// One logical S3 operation with @aws-sdk/client-s3, for `retrylab conform` (tests/clients/tst_conform_npm.cpp).
// The lab answers any path: path-style addressing puts the bucket and key in it. A GET is GetObject (its
// body read to the end), anything else PutObject (S3 has no plain POST object call; the judge uses the
// method the SDK sent). Retries as the SDK ships them in standard mode (3 attempts); the node HTTP handler
// gets a 3 s request timeout that throws (it only warns by default) so a hang costs seconds. Exit 0 on success, 1 when the SDK threw.
import { S3Client, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';

const endpoint = process.env.RETRYLAB_BASE_URL;
const method = process.env.RETRYLAB_METHOD ?? 'GET';
if (!endpoint) {
    console.error('s3-client: RETRYLAB_BASE_URL is not set (run me under retrylab conform)');
    process.exit(2);
}

const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDRETRYLABDUMMY', secretAccessKey: 'retrylab-dummy-secret' },
    retryMode: 'standard',
    requestHandler: { connectionTimeout: 3000, requestTimeout: 3000, throwOnRequestTimeout: true },
});

try {
    if (method === 'GET') {
        const answer = await client.send(new GetObjectCommand({ Bucket: 'retrylab', Key: 'case.json' }));
        await answer.Body.transformToString();
    } else {
        await client.send(new PutObjectCommand({ Bucket: 'retrylab', Key: 'case.json', Body: '{"ping":true}' }));
    }
    process.exit(0);
} catch (error) {
    console.error(`s3-client: ${error.name}: ${error.message}`);
    process.exit(1);
}
