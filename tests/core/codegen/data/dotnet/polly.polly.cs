// Retry policy "polly", exported by Retrylab @VERSION@ for Polly 8.
// Polly.Core RetryStrategyOptions defaults around an HttpClient call: 3 retries, Constant 2 s, no jitter,
// exceptions handled except cancellations, no HTTP statuses.
// Source: Polly v8 (Polly.Core) — RetryStrategyOptions
// Exact: every behaviour of the policy is expressed below.

using System;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using Polly;
using Polly.Retry;

namespace RetrylabExport; // rename to your namespace

/// <summary>
/// The "polly" retry policy as a Polly 8 resilience pipeline. Send each request with <see cref="SendAsync"/>.
/// </summary>
public static class PollyPolicy
{
    /// <summary>The pipeline, outermost strategy first: build it once and share it.</summary>
    public static readonly ResiliencePipeline<HttpResponseMessage> Pipeline = new ResiliencePipelineBuilder<HttpResponseMessage>()
        .AddRetry(new RetryStrategyOptions<HttpResponseMessage>
        {
            MaxRetryAttempts = 3, // retries after the first attempt: 4 attempts in all
            BackoffType = DelayBackoffType.Constant,
            Delay = TimeSpan.FromSeconds(2),
        })
        .Build();

    /// <summary>
    /// Sends one logical request through <see cref="Pipeline"/> and returns the last answer.
    /// <paramref name="newRequest"/> builds each attempt's request, body included: an HttpRequestMessage can be
    /// sent only once.
    /// </summary>
    public static ValueTask<HttpResponseMessage> SendAsync(HttpClient client, Func<HttpRequestMessage> newRequest,
        CancellationToken cancellationToken = default) =>
        Pipeline.ExecuteAsync(async token => await client.SendAsync(newRequest(), token).ConfigureAwait(false), cancellationToken);
}
