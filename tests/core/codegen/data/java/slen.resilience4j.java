// Retry policy "slen", exported by Retrylab @VERSION@ for resilience4j 2.
// Slen SDK: no answer, 429 and 503 with service_unavailable/ledger_unavailable/pool_exhausted are sent again,
// 500/502/504 and every other answer never; 2 retries from 200 ms doubling to 5 s, ±25 %.
// Source: Slen SDK docs — What the SDK sends again, and how long it waits
// Exact: every behaviour of the policy is expressed below.

package retrylab.export; // rename to your package

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
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
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import javax.net.ssl.SSLException;

/**
 * The "slen" retry policy with resilience4j 2 around java.net.http (Java 17): send each request with
 * {@link #send}.
 */
public final class SlenRetry {
    /** The request header the policy's idempotency keys travel in. */
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

    /** The client every attempt goes through, with the policy's connect timeout. */
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SlenRetry() {
    }

    /**
     * Sends one logical request under the "slen" policy and returns the last answer. The request is sent again
     * on every attempt: its body publisher must allow that (ofString and ofByteArray do).
     */
    public static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        RetryCall call = new RetryCall(withIdempotencyKey(request)); // one key per logical request, on every attempt
        // A Retry per call: its predicates and wait read this call's state.
        Retry retry = Retry.of("slen", call.retryConfig());
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

    /** REQUEST with a new key (a random UUID) when its method takes one and it carries none. */
    private static HttpRequest withIdempotencyKey(HttpRequest request) {
        if (!in(request.method().toUpperCase(Locale.ROOT), "POST") || request.headers().firstValue(IDEMPOTENCY_KEY_HEADER).isPresent()) {
            return request;
        }
        return HttpRequest.newBuilder(request, (name, value) -> true).header(IDEMPOTENCY_KEY_HEADER, UUID.randomUUID().toString()).build();
    }

    /**
     * One logical request through its attempts: its method and key, whether an earlier attempt lost its
     * answer, the wait chosen for the next retry.
     */
    private static final class RetryCall {
        private final HttpRequest request;
        private final String method;
        private final boolean hasKey;
        private boolean lostAnswer;
        private int retries; // retries drawn so far
        private long nextWait; // milliseconds

        RetryCall(HttpRequest request) {
            this.request = request;
            this.method = request.method().toUpperCase(Locale.ROOT);
            this.hasKey = request.headers().firstValue(IDEMPOTENCY_KEY_HEADER).isPresent();
        }

        /** resilience4j's retry for this call: the policy's rules decide and choose the wait. */
        RetryConfig retryConfig() {
            return RetryConfig.<HttpResponse<String>>custom()
                .maxAttempts(3) // attempts, the first included: 2 retries
                .retryOnResult(response -> shouldRetry(Attempt.answered(response)))
                .retryOnException(e -> !(e instanceof InterruptedException) && shouldRetry(Attempt.failed(e)))
                .intervalBiFunction((attempt, outcome) -> nextWait) // the wait shouldRetry chose
                .failAfterMaxAttempts(false) // the last answer, not MaxRetriesExceededException
                .build();
        }

        /** The request of the next attempt: one attempt's timeout. */
        HttpRequest attemptRequest() {
            return HttpRequest.newBuilder(request, (name, value) -> true).timeout(Duration.ofSeconds(65)).build();
        }

        private boolean shouldRetry(Attempt a) {
            boolean retry = judge(a);
            if (in(a.error(), "response-timeout", "connection-lost", "protocol")) {
                lostAnswer = true; // sent, and the answer lost
            }
            return retry && chooseWait(a);
        }

        /**
         * What the policy's rules say: the first that matches decides; with none, 1xx–3xx are a success and
         * everything else is final.
         */
        private boolean judge(Attempt a) {
            if ("DELETE".equals(method) && a.status() == 404 && in(bodyField(a.body(), "error.code"), "customer_not_found") && lostAnswer) {
                return false; // customer-deleted-after-lost-answer: a success
            }
            if (a.error() != null) {
                return true; // no-answer
            }
            if (a.status() == 429) {
                return true; // rate-limited
            }
            if (a.status() == 503 && in(bodyField(a.body(), "error.code"), "service_unavailable", "ledger_unavailable", "pool_exhausted")) {
                return true; // slen-busy
            }
            if (a.status() == 500 || a.status() == 502 || a.status() == 504) {
                return false; // provider-may-have-been-paid
            }
            if (a.status() >= 400 && a.status() <= 599) {
                return false; // any-other-answer
            }
            return false;
        }

        /** The wait before the next attempt, from the backoff and the server's hints; false to give up instead. */
        private boolean chooseWait(Attempt a) {
            double wait = backoff();
            boolean hinted = false;
            // hints[0]: Retry-After on 429, 503, at most 30000 ms (give up above)
            if (!hinted && (a.status() == 429 || a.status() == 503)) {
                Hint hint = headerDelay(a.response(), "Retry-After", HintFormat.RETRY_AFTER);
                if (hint.present() && hint.valid() && hint.asked() >= 0) {
                    if (hint.asked() > 30000.0) {
                        return false; // more than the policy waits: give up
                    }
                    hinted = true;
                    double asked = hint.asked();
                    wait = asked;
                    wait = Math.floor(wait * (0.75 + 0.5 * RANDOM.nextDouble())); // the policy's jitter shifts it too
                }
            }
            nextWait = (long) Math.floor(Math.min(Math.max(wait, 0), MAX_WAIT_MS) + 1e-3);
            return true;
        }

        /** The policy's wait before the next retry, in milliseconds, before any server hint. */
        private double backoff() {
            retries++;
            double ceiling = 200.0 * Math.pow(2.0, retries - 1);
            // ±25 %, the cap before the jitter
            double d = Math.min(ceiling, 5000.0);
            d = d * (0.75 + 0.5 * RANDOM.nextDouble());
            return d;
        }
    }

    private static final double MAX_WAIT_MS = 2147483647;
    private static final Random RANDOM = new Random();

    private enum HintFormat { RETRY_AFTER, MILLISECONDS, SECONDS }

    private record Hint(boolean present, boolean valid, double asked) {
    }

    /** The wait (milliseconds) a server asks for in header NAME: RETRY_AFTER is delta-seconds or an HTTP-date. */
    private static Hint headerDelay(HttpResponse<?> response, String name, HintFormat format) {
        String value = response == null ? null : response.headers().firstValue(name).map(String::trim).orElse(null);
        if (value == null) {
            return new Hint(false, false, 0);
        }
        try {
            if (format == HintFormat.MILLISECONDS) {
                return new Hint(true, true, Math.floor(Double.parseDouble(value)));
            }
            if (format == HintFormat.SECONDS || value.chars().allMatch(Character::isDigit)) {
                long seconds = Long.parseLong(value);
                return new Hint(true, true, Math.max(-3_153_600_000L, Math.min(seconds, 3_153_600_000L)) * 1000.0);
            }
            ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
            return new Hint(true, true, Math.max(0, at.toInstant().toEpochMilli() - System.currentTimeMillis()));
        } catch (NumberFormatException | DateTimeParseException e) {
            return new Hint(true, false, 0);
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

        String body() {
            return response != null && response.body() instanceof String text ? text : "";
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

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The value at PATH ("error.code", "errors[0].code") of a JSON body, as text; null when there is none. */
    private static String bodyField(String body, String path) {
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return null;
        }
        for (String step : path.split("[.\\[]")) {
            if (step.isEmpty()) {
                continue;
            }
            if (node == null) {
                return null;
            }
            if (step.endsWith("]")) {
                try {
                    node = node.isArray() ? node.get(Integer.parseInt(step.substring(0, step.length() - 1))) : null;
                } catch (NumberFormatException e) {
                    return null;
                }
            } else {
                node = node.isObject() ? node.get(step) : null;
            }
        }
        if (node == null || node.isMissingNode() || node.isContainerNode()) {
            return null;
        }
        return node.isNull() ? "null" : node.asText();
    }
}
