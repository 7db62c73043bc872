// Retry policy "resilience4j", exported by Retrylab @VERSION@ for resilience4j 2.
// resilience4j RetryConfig defaults: 3 attempts, a fixed 500 ms wait, every exception retried.
// Source: resilience4j — RetryConfig
// Exact: every behaviour of the policy is expressed below.

package retrylab.export; // rename to your package

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.core.functions.CheckedSupplier;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * The "resilience4j" retry policy with resilience4j 2 around java.net.http (Java 17): send each request with
 * {@link #send}.
 */
public final class Resilience4jRetry {
    /** The request header the policy's idempotency keys travel in. */
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    /** The client every attempt goes through. */
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private Resilience4jRetry() {
    }

    /**
     * Sends one logical request under the "resilience4j" policy and returns the last answer. The request is sent again
     * on every attempt: its body publisher must allow that (ofString and ofByteArray do).
     */
    public static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        RetryCall call = new RetryCall(request);
        // A Retry per call: its predicates and wait read this call's state.
        Retry retry = Retry.of("resilience4j", call.retryConfig());
        CheckedSupplier<HttpResponse<String>> attempt = () -> CLIENT.send(call.attemptRequest(), HttpResponse.BodyHandlers.ofString());
        attempt = Retry.decorateCheckedSupplier(retry, attempt);
        try {
            return attempt.get();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IOException(e);
        }
    }

    /**
     * One logical request through its attempts: its method and key.
     */
    private static final class RetryCall {
        private final HttpRequest request;
        private final String method;
        private final boolean hasKey;

        RetryCall(HttpRequest request) {
            this.request = request;
            this.method = request.method().toUpperCase(Locale.ROOT);
            this.hasKey = request.headers().firstValue(IDEMPOTENCY_KEY_HEADER).isPresent();
        }

        /** resilience4j's retry for this call: the policy's rules decide. */
        RetryConfig retryConfig() {
            return RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(3) // attempts, the first included: 2 retries
                .waitDuration(Duration.ofMillis(500))
                .retryOnResult(response -> shouldRetry(Attempt.answered(response)))
                .retryOnException(e -> !(e instanceof InterruptedException) && shouldRetry(Attempt.failed(e)))
                .failAfterMaxAttempts(false) // the last answer, not MaxRetriesExceededException
                .build();
        }

        HttpRequest attemptRequest() {
            return request;
        }

        private boolean shouldRetry(Attempt a) {
            boolean retry = judge(a);
            return retry;
        }

        /**
         * What the policy's rules say: the first that matches decides; with none, 1xx–3xx are a success and
         * everything else is final.
         */
        private boolean judge(Attempt a) {
            if (a.error() != null) {
                return true; // any-exception
            }
            if (a.status() >= 400 && a.status() <= 599) {
                return true; // thrown-status
            }
            return false;
        }
    }

    /** One attempt's outcome as the policy's rules see it: the answer, how it failed, or the breaker's refusal. */
    private record Attempt(HttpResponse<?> response, String error, boolean circuitOpen) {
        static Attempt answered(HttpResponse<?> response) {
            return new Attempt(response, null, false);
        }

        static Attempt failed(Throwable e) {
            return e instanceof CallNotPermittedException ? new Attempt(null, null, true) : new Attempt(null, errorClass(e), false);
        }

        int status() {
            return response == null ? 0 : response.statusCode();
        }
    }

    /** How an attempt failed without an answer, in the policy's words. */
    private static String errorClass(Throwable e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "connect-timeout";
        }
        if (e instanceof HttpTimeoutException) {
            return "response-timeout";
        }
        if (e instanceof UnknownHostException || e.getCause() instanceof UnresolvedAddressException) {
            return "dns";
        }
        if (e instanceof ConnectException) {
            return "refused";
        }
        if (e instanceof SSLException) {
            return "tls";
        }
        if (e instanceof ProtocolException) {
            return "protocol";
        }
        return e instanceof IOException ? "connection-lost" : "protocol";
    }

    private static boolean in(String value, String... values) {
        return value != null && Arrays.asList(values).contains(value);
    }
}
