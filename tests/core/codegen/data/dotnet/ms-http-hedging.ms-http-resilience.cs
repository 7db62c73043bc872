// Retry policy "ms-http-hedging", exported by Retrylab @VERSION@ for Http.Resilience 9.
// Microsoft.Extensions.Http.Resilience standard hedging handler: 30 s total, 1 hedge after 2 s, per endpoint
// a limiter, Polly's breaker and 10 s per attempt.
// Source: Microsoft.Extensions.Http.Resilience — AddStandardHedgingHandler
// Exact: every behaviour of the policy is expressed below.

using System;
using System.Net.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Http.Resilience;

namespace RetrylabExport; // rename to your namespace

/// <summary>
/// The "ms-http-hedging" retry policy on a named HttpClient with Microsoft.Extensions.Http.Resilience: register it with
/// <see cref="AddMsHttpHedgingHttpClient"/> and resolve it with IHttpClientFactory.CreateClient(ClientName).
/// </summary>
public static class MsHttpHedgingPolicy
{
    /// <summary>The name of the HttpClient it configures.</summary>
    public const string ClientName = "ms-http-hedging";

    /// <summary>Registers the HttpClient named <see cref="ClientName"/> with the policy's resilience handler.</summary>
    public static IHttpClientBuilder AddMsHttpHedgingHttpClient(this IServiceCollection services)
    {
        var client = services.AddHttpClient(ClientName);
        client.AddStandardHedgingHandler().Configure(o =>
        {
            o.TotalRequestTimeout.Timeout = TimeSpan.FromSeconds(30); // pipeline[0]: the whole request
            o.Hedging.MaxHedgedAttempts = 1; // copies beyond the first
            o.Hedging.Delay = TimeSpan.FromSeconds(2); // the next copy when the last has not answered by then
            // Per endpoint (scheme, host and port): its limiter, breaker and attempt timeout.
            o.Endpoint.RateLimiter.DefaultRateLimiterOptions.PermitLimit = 1000; // pipeline[2]: calls at once
            o.Endpoint.RateLimiter.DefaultRateLimiterOptions.QueueLimit = 0; // then waiting for one
            o.Endpoint.CircuitBreaker.FailureRatio = 0.1; // opens at ≥ 10 % failures
            o.Endpoint.CircuitBreaker.MinimumThroughput = 100; // of at least 100 calls
            o.Endpoint.CircuitBreaker.SamplingDuration = TimeSpan.FromSeconds(30); // in this window
            o.Endpoint.CircuitBreaker.BreakDuration = TimeSpan.FromSeconds(5);
            o.Endpoint.Timeout.Timeout = TimeSpan.FromSeconds(10); // pipeline[4]: each attempt
        });
        return client;
    }
}
