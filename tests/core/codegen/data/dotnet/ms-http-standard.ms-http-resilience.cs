// Retry policy "ms-http-standard", exported by Retrylab @VERSION@ for Http.Resilience 9.
// Microsoft.Extensions.Http.Resilience standard handler: limiter 1 000, 30 s total, 3 retries, Polly's
// breaker on transient failures, 10 s per attempt.
// Source: Microsoft.Extensions.Http.Resilience — AddStandardResilienceHandler, the whole pipeline
// NOT EXPRESSED by Http.Resilience 9 (1), so this code differs from the policy here:
//   - pipeline[1]: not starting a wait that would end past the 30000 ms deadline: Polly's timeout lets the
//     retry wait and cancels it at the deadline (TimeoutRejectedException, not the last answer)

using System;
using System.Net.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Http.Resilience;
using Polly;

namespace RetrylabExport; // rename to your namespace

/// <summary>
/// The "ms-http-standard" retry policy on a named HttpClient with Microsoft.Extensions.Http.Resilience: register it with
/// <see cref="AddMsHttpStandardHttpClient"/> and resolve it with IHttpClientFactory.CreateClient(ClientName).
/// </summary>
public static class MsHttpStandardPolicy
{
    /// <summary>The name of the HttpClient it configures.</summary>
    public const string ClientName = "ms-http-standard";

    /// <summary>Registers the HttpClient named <see cref="ClientName"/> with the policy's resilience handler.</summary>
    public static IHttpClientBuilder AddMsHttpStandardHttpClient(this IServiceCollection services)
    {
        var client = services.AddHttpClient(ClientName);
        client.AddStandardResilienceHandler(o =>
        {
            o.RateLimiter.DefaultRateLimiterOptions.PermitLimit = 1000; // pipeline[0]: calls at once
            o.RateLimiter.DefaultRateLimiterOptions.QueueLimit = 0; // then waiting for one
            o.TotalRequestTimeout.Timeout = TimeSpan.FromSeconds(30); // pipeline[1]: the whole request
            o.Retry.MaxRetryAttempts = 3; // retries after the first attempt: 4 attempts in all
            o.Retry.BackoffType = DelayBackoffType.Exponential; // with UseJitter: DecorrelatedJitterBackoffV2, median near Delay × 2^(retry − 1)
            o.Retry.Delay = TimeSpan.FromSeconds(2);
            o.Retry.UseJitter = true;
            o.Retry.ShouldRetryAfterHeader = true; // Retry-After (seconds or a date) replaces the delay on any retried answer
            o.CircuitBreaker.FailureRatio = 0.1; // opens at ≥ 10 % failures
            o.CircuitBreaker.MinimumThroughput = 100; // of at least 100 calls
            o.CircuitBreaker.SamplingDuration = TimeSpan.FromSeconds(30); // in this window
            o.CircuitBreaker.BreakDuration = TimeSpan.FromSeconds(5);
            o.AttemptTimeout.Timeout = TimeSpan.FromSeconds(10); // pipeline[4]: each attempt
        });
        return client;
    }
}
