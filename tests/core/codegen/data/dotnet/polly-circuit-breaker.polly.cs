// Retry policy "polly-circuit-breaker", exported by Retrylab @VERSION@ for Polly 8.
// Polly 8: a retry around a circuit breaker, both with their defaults (3 retries 2 s apart; opens at ≥ 10 %
// of ≥ 100 calls in 30 s, 5 s break, one probe).
// Source: Polly 8 — a retry around a circuit breaker, both with their defaults
// Exact: every behaviour of the policy is expressed below.

using System;
using System.IO;
using System.Net.Http;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;
using Polly.Timeout;

namespace RetrylabExport; // rename to your namespace

/// <summary>
/// The "polly-circuit-breaker" retry policy as a Polly 8 resilience pipeline. Send each request with <see cref="SendAsync"/>.
/// </summary>
public static class PollyCircuitBreakerPolicy
{
    /// <summary>The pipeline, outermost strategy first: build it once and share it (the circuit breaker's state is the application's).</summary>
    public static readonly ResiliencePipeline<HttpResponseMessage> Pipeline = new ResiliencePipelineBuilder<HttpResponseMessage>()
        .AddRetry(new RetryStrategyOptions<HttpResponseMessage>
        {
            MaxRetryAttempts = 3, // retries after the first attempt: 4 attempts in all
            BackoffType = DelayBackoffType.Constant,
            Delay = TimeSpan.FromSeconds(2),
        })
        .AddCircuitBreaker(new CircuitBreakerStrategyOptions<HttpResponseMessage>
        {
            FailureRatio = 0.1, // opens at ≥ 10 % failures
            MinimumThroughput = 100, // of at least 100 calls
            SamplingDuration = TimeSpan.FromSeconds(30), // in this window
            BreakDuration = TimeSpan.FromSeconds(5),
            ShouldHandle = args => IsBreakerFailureAsync(args.Outcome, args.Context), // pipeline[1].failures
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

    // What the circuit breaker counts as a failure.
    private static async ValueTask<bool> IsBreakerFailureAsync(Outcome<HttpResponseMessage> outcome, ResilienceContext context)
    {
        var a = await Attempt.ReadAsync(outcome, context.CancellationToken).ConfigureAwait(false);
        return a is not null && (a.Error is not null);
    }

    // One attempt's outcome as the policy's rules see it: the answer, how the attempt failed (Error), or the
    // circuit breaker's refusal.
    private sealed record Attempt(HttpResponseMessage? Response, string? Error, bool CircuitOpen)
    {
        public int Status => Response is null ? 0 : (int)Response.StatusCode;

        // Null when the caller cancelled: never retried.
        public static ValueTask<Attempt?> ReadAsync(Outcome<HttpResponseMessage> outcome, CancellationToken cancellationToken)
        {
            switch (outcome.Exception)
            {
                case OperationCanceledException when cancellationToken.IsCancellationRequested:
                    return ValueTask.FromResult<Attempt?>(null);
                case BrokenCircuitException:
                    return ValueTask.FromResult<Attempt?>(new Attempt(null, null, true));
                case { } e:
                    return ValueTask.FromResult<Attempt?>(new Attempt(null, ErrorClass(e), false));
            }
            return ValueTask.FromResult<Attempt?>(new Attempt(outcome.Result, null, false));
        }
    }

    // How an attempt failed without an answer, in the policy's words (HttpRequestError is .NET 8's).
    private static string ErrorClass(Exception e) => e switch
    {
        TimeoutRejectedException => "response-timeout", // Polly's timeout ended the attempt
        OperationCanceledException => "response-timeout", // HttpClient.Timeout (and SocketsHttpHandler.ConnectTimeout)
        HttpRequestException { HttpRequestError: HttpRequestError.NameResolutionError } => "dns",
        HttpRequestException { HttpRequestError: HttpRequestError.SecureConnectionError } => "tls",
        HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError, InnerException: SocketException { SocketErrorCode: SocketError.TimedOut } }
            => "connect-timeout",
        HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError } => "refused",
        HttpRequestException { HttpRequestError: HttpRequestError.ResponseEnded } => "connection-lost",
        HttpRequestException { InnerException: IOException } => "connection-lost",
        _ => "protocol",
    };
}
