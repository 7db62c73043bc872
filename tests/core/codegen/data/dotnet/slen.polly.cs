// Retry policy "slen", exported by Retrylab @VERSION@ for Polly 8.
// Slen SDK: no answer, 429 and 503 with service_unavailable/ledger_unavailable/pool_exhausted are sent again,
// 500/502/504 and every other answer never; 2 retries from 200 ms doubling to 5 s, ±25 %.
// Source: Slen SDK docs — What the SDK sends again, and how long it waits
// NOT EXPRESSED by Polly 8 (1), so this code differs from the policy here:
//   - limits.connect_timeout_ms: the connect timeout of 5000 ms: Polly has no setting for it (set it on the
//     transport underneath)

using System;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net.Http;
using System.Net.Sockets;
using System.Text.Json;
using System.Threading;
using System.Threading.Tasks;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;
using Polly.Timeout;

namespace RetrylabExport; // rename to your namespace

/// <summary>
/// The "slen" retry policy as a Polly 8 resilience pipeline. Send each request with <see cref="SendAsync"/>.
/// </summary>
public static class SlenPolicy
{
    /// <summary>The request header the policy's idempotency keys travel in.</summary>
    public const string IdempotencyKeyHeader = "Idempotency-Key";

    /// <summary>The pipeline, outermost strategy first: build it once and share it.</summary>
    public static readonly ResiliencePipeline<HttpResponseMessage> Pipeline = new ResiliencePipelineBuilder<HttpResponseMessage>()
        .AddRetry(new RetryStrategyOptions<HttpResponseMessage>
        {
            MaxRetryAttempts = 2, // retries after the first attempt: 3 attempts in all
            ShouldHandle = args => CallOf(args.Context).ShouldRetryAsync(args.Outcome, args.Context.CancellationToken), // the policy's rules, in order; they choose the wait too
            DelayGenerator = args => new ValueTask<TimeSpan?>(CallOf(args.Context).NextDelay), // the wait ShouldHandle chose
        })
        .AddTimeout(TimeSpan.FromSeconds(65)) // limits.attempt_timeout_ms: each attempt
        .Build();

    /// <summary>
    /// Sends one logical request through <see cref="Pipeline"/> and returns the last answer.
    /// <paramref name="newRequest"/> builds each attempt's request, body included: an HttpRequestMessage can be
    /// sent only once.
    /// </summary>
    public static async ValueTask<HttpResponseMessage> SendAsync(HttpClient client, Func<HttpRequestMessage> newRequest,
        CancellationToken cancellationToken = default)
    {
        var key = NewIdempotencyKey(); // one key per logical request, sent on every attempt
        var call = new RetryCall();
        var context = ResilienceContextPool.Shared.Get(cancellationToken);
        context.Properties.Set(CallKey, call);
        try
        {
            return await Pipeline.ExecuteAsync(async ctx =>
            {
                var request = newRequest();
                AddIdempotencyKey(request, key);
                call.Prepare(request);
                return await client.SendAsync(request, ctx.CancellationToken).ConfigureAwait(false);
            }, context).ConfigureAwait(false);
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    // A random (version 4) UUID.
    private static string NewIdempotencyKey() => Guid.NewGuid().ToString();

    // The call's KEY on a request whose method takes one, unless the caller set one.
    private static void AddIdempotencyKey(HttpRequestMessage request, string key)
    {
        if (request.Method.Method.ToUpperInvariant() is "POST" && !request.Headers.Contains(IdempotencyKeyHeader))
            request.Headers.TryAddWithoutValidation(IdempotencyKeyHeader, key);
    }

    private static readonly ResiliencePropertyKey<RetryCall> CallKey = new("retrylab.call");

    private static RetryCall CallOf(ResilienceContext context) =>
        context.Properties.TryGetValue(CallKey, out var call) ? call : throw new InvalidOperationException("Send through SendAsync.");

    // One logical request through its attempts: its method and key, whether an earlier attempt lost its
    // answer after sending, the wait chosen for the next retry.
    private sealed class RetryCall
    {
        private int _retries; // retries drawn so far

        public string Method { get; private set; } = "GET";

        public bool HasKey { get; private set; }

        public bool LostAnswer { get; private set; }

        public TimeSpan? NextDelay { get; private set; }

        // The method and key of the attempt about to be sent.
        public void Prepare(HttpRequestMessage request)
        {
            Method = request.Method.Method.ToUpperInvariant();
            HasKey = request.Headers.Contains(IdempotencyKeyHeader);
        }

        // Whether the policy retries this attempt, and after how long (NextDelay).
        public async ValueTask<bool> ShouldRetryAsync(Outcome<HttpResponseMessage> outcome, CancellationToken cancellationToken)
        {
            var a = await Attempt.ReadAsync(outcome, cancellationToken).ConfigureAwait(false);
            if (a is null)
                return false; // the caller cancelled
            var retry = Judge(a);
            if (a.Error is "response-timeout" or "connection-lost" or "protocol")
                LostAnswer = true; // sent, and the answer lost
            return retry && ChooseWait(a);
        }

        // What the policy's rules say: the first that matches decides; with none, 1xx–3xx are a success and
        // everything else is final.
        private bool Judge(Attempt a)
        {
            if (Method is "DELETE" && a.Status is 404 && BodyField(a.Body, "error.code") is "customer_not_found" && LostAnswer)
                return false; // customer-deleted-after-lost-answer: a success
            if (a.Error is not null)
                return true; // no-answer
            if (a.Status is 429)
                return true; // rate-limited
            if (a.Status is 503 && BodyField(a.Body, "error.code") is "service_unavailable" or "ledger_unavailable" or "pool_exhausted")
                return true; // slen-busy
            if (a.Status is 500 or 502 or 504)
                return false; // provider-may-have-been-paid
            if (a.Status is >= 400 and <= 599)
                return false; // any-other-answer
            return false;
        }

        // The wait before the next attempt, from the backoff and the server's hints; false when the policy gives up instead.
        private bool ChooseWait(Attempt a)
        {
            var wait = Backoff();
            var hinted = false;
            // hints[0]: Retry-After on 429, 503, at most 30000 ms (give up above)
            if (!hinted && a.Status is 429 or 503)
            {
                var (present, valid, asked) = HeaderDelay(a.Response, "Retry-After", HintFormat.RetryAfter);
                if (present && valid && asked >= 0)
                {
                    if (asked > 30000.0)
                        return false; // more than the policy waits: give up
                    else
                    {
                        hinted = true;
                        wait = asked;
                        wait = Math.Floor(wait * (0.75 + 0.5 * Random.Shared.NextDouble())); // the policy's jitter shifts it too
                    }
                }
            }
            NextDelay = Millis(wait);
            return true;
        }

        // The policy's wait before the next retry, in milliseconds, before any server hint.
        private double Backoff()
        {
            _retries++;
            var ceiling = 200.0 * Math.Pow(2.0, _retries - 1);
            // ±25 %, the cap before the jitter
            var d = Math.Min(ceiling, 5000.0);
            d = d * (0.75 + 0.5 * Random.Shared.NextDouble());
            return d;
        }
    }

    // One attempt's outcome as the policy's rules see it: the answer, how the attempt failed (Error), or the
    // circuit breaker's refusal.
    private sealed record Attempt(HttpResponseMessage? Response, string? Error, bool CircuitOpen, string Body)
    {
        public int Status => Response is null ? 0 : (int)Response.StatusCode;

        // Null when the caller cancelled: never retried.
        public static async ValueTask<Attempt?> ReadAsync(Outcome<HttpResponseMessage> outcome, CancellationToken cancellationToken)
        {
            switch (outcome.Exception)
            {
                case OperationCanceledException when cancellationToken.IsCancellationRequested:
                    return null;
                case BrokenCircuitException:
                    return new Attempt(null, null, true, "");
                case { } e:
                    return new Attempt(null, ErrorClass(e), false, "");
            }
            // Reading the body buffers it: the caller can still read it.
            var body = await outcome.Result!.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
            return new Attempt(outcome.Result, null, false, body);
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

    private const double MaxWaitMs = 2147483647;

    // MS whole milliseconds, rounded down.
    private static TimeSpan Millis(double ms) => TimeSpan.FromMilliseconds(Math.Floor(Math.Clamp(ms, 0, MaxWaitMs) + 1e-3));

    private enum HintFormat { RetryAfter, Milliseconds, Seconds }

    // The wait (milliseconds) a server asks for in header NAME: RetryAfter is delta-seconds or an HTTP-date.
    private static (bool Present, bool Valid, double Asked) HeaderDelay(HttpResponseMessage? response, string name, HintFormat format)
    {
        if (response is null || !(response.Headers.TryGetValues(name, out var values) || response.Content.Headers.TryGetValues(name, out values)))
            return (false, false, 0);
        var value = values.First().Trim();
        if (format == HintFormat.Milliseconds)
            return double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var n) ? (true, true, Math.Floor(n)) : (true, false, 0);
        var sign = format == HintFormat.Seconds ? NumberStyles.AllowLeadingSign : NumberStyles.None;
        if (long.TryParse(value, sign, CultureInfo.InvariantCulture, out var seconds))
            return (true, true, Math.Clamp(seconds, -3_153_600_000L, 3_153_600_000L) * 1000.0);
        if (format == HintFormat.RetryAfter
            && DateTimeOffset.TryParse(value, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at))
            return (true, true, Math.Max(0, Math.Floor((at - DateTimeOffset.UtcNow).TotalMilliseconds)));
        return (true, false, 0);
    }

    // The value at PATH ("error.code", "errors[0].code") of a JSON body, as text; null when there is none.
    private static string? BodyField(string body, string path)
    {
        try
        {
            using var document = JsonDocument.Parse(body);
            var e = document.RootElement;
            foreach (var step in path.Split('.', '['))
            {
                if (step.Length == 0)
                    continue;
                if (step.EndsWith(']'))
                {
                    if (e.ValueKind != JsonValueKind.Array || !int.TryParse(step[..^1], out var i) || i < 0 || i >= e.GetArrayLength())
                        return null;
                    e = e[i];
                }
                else if (e.ValueKind != JsonValueKind.Object || !e.TryGetProperty(step, out e))
                {
                    return null;
                }
            }
            return e.ValueKind switch
            {
                JsonValueKind.String => e.GetString(),
                JsonValueKind.Number => e.GetDouble().ToString("G17", CultureInfo.InvariantCulture),
                JsonValueKind.True => "true",
                JsonValueKind.False => "false",
                JsonValueKind.Null => "null",
                _ => null,
            };
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
