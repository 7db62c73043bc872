// SPDX-License-Identifier: GPL-3.0-or-later
// The resilience4j targets: Java around java.net.http (resilience4j 2, Java 17) and Spring Boot's
// resilience4j.retry properties (retry-systems.md §8, resilience-fleets.md §1.4 and §5). resilience4j counts
// attempts, the first included.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/targets/javacode.h"
#include "codegen/targets/proxyoutcomes.h"
#include "codegen/targets/resilience4jimport.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace {

qsizetype retryIndexOf(const RetryPolicy& p)
{
    qsizetype index = -1;
    strategyOf(p, ResilienceStrategy::Kind::Retry, &index);
    return index;
}

QString floatText(double v)
{
    const QString t = numberText(v);
    return t.contains(u'.') ? t + u'f' : t;
}

// What the breaker's window is written as: its type, size and minimum.
struct R4jWindow
{
    QString type;
    int size = 100;
    int minimum = 100;
    double ratePercent = 50;
};

R4jWindow windowOf(const CircuitBreakerOptions& b)
{
    using B = CircuitBreakerOptions;
    R4jWindow w;
    w.ratePercent = b.failureRatio * 100;
    w.minimum = b.minimumCalls;
    switch (b.window) {
    case B::Window::Consecutive:
        w.type = u"COUNT_BASED"_s;
        w.size = w.minimum = b.consecutiveFailures;
        w.ratePercent = 100;
        break;
    case B::Window::Count:
        w.type = u"COUNT_BASED"_s;
        w.size = b.windowCalls;
        break;
    case B::Window::Time:
        w.type = u"TIME_BASED"_s;
        w.size = std::max(1, int(b.samplingDuration.count() / 1000));
        break;
    }
    return w;
}

// All transport failures and statuses 400–599: what a decorated call that throws for them has retried or
// recorded by resilience4j's defaults (every exception).
RetriedOutcomes everythingThrown()
{
    RetriedOutcomes o;
    for (int s = 400; s <= 599; ++s)
        o.statuses << s;
    o.errors = ProxyOutcomes::allErrors();
    return o;
}

QString instanceName(const QString& name)
{
    static const QRegularExpression plain(u"^[A-Za-z0-9_-]+$"_s);
    return plain.match(name).hasMatch() ? name : u"\"[%1]\""_s.arg(QString(name).remove(u'"'));
}

QString javaFile(const QString& header, const JavaUnit& unit, const QString& classText)
{
    QStringList imports(unit.imports.cbegin(), unit.imports.cend());
    imports.sort();
    QString out = header + u"\npackage retrylab.export; // rename to your package\n\n"_s;
    QString group;
    for (const QString& i : std::as_const(imports)) {
        const QString top = i.section(u'.', 0, 0);
        const QString g = top == u"java"_s || top == u"javax"_s ? u"java"_s : u"other"_s;
        if (!group.isEmpty() && g != group)
            out += u'\n';
        group = g;
        out += u"import %1;\n"_s.arg(i);
    }
    out += u'\n' + classText;
    while (out.endsWith(u"\n\n"_s))
        out.chop(1);
    return out;
}

CodeExport resilience4jUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    TargetAbilities can;
    can.deadline = true; // RetryCall's check before a wait, and each attempt's timeout ends with the deadline
    can.attemptTimeout = true; // HttpRequest.timeout
    can.connectTimeout = true; // HttpClient.Builder.connectTimeout
    can.circuitBreaker = true;
    can.timeouts = true; // the pipeline's timeouts as the two above
    loseUnsupported(p, can, u"resilience4j"_s, lost);
    PipelineShape shape = readPipeline(p);
    const bool hasRetry = p.pipeline.isEmpty() || retryIndexOf(p) >= 0;
    if (!hasRetry)
        shape.policy.limits.maxAttempts = 1;
    // java.net.http reports a malformed answer and a dropped connection alike (an IOException).
    for (const QString& m : ProxyOutcomes::methods()) {
        const RetriedOutcomes got = ProxyOutcomes::retried(shape.policy, m);
        if (got.contains(ErrorClass::Protocol) != got.contains(ErrorClass::ConnectionLost)) {
            lost.add(u"rules.protocol"_s, u"a malformed answer judged apart from a lost connection: java.net.http reports both as an IOException, read as connection-lost"_s);
            break;
        }
    }
    const R4jInterval interval = r4jInterval(shape.policy, nullptr);
    JavaUnit unit;
    unit.imports << u"io.github.resilience4j.core.functions.CheckedSupplier"_s << u"io.github.resilience4j.retry.Retry"_s
                 << u"java.io.IOException"_s << u"java.net.http.HttpClient"_s << u"java.net.http.HttpRequest"_s
                 << u"java.net.http.HttpResponse"_s;
    writeJavaState(shape, interval, unit);

    const QString cls = pascalName(p.name) + u"Retry"_s;
    QString c = u"/**\n * The \"%1\" retry policy with resilience4j 2 around java.net.http (Java 17): send each request with\n"
                " * {@link #send}.\n */\npublic final class %2 {\n"_s.arg(p.name, cls);
    c += u"    /** The request header the policy's idempotency keys travel in. */\n"
         "    public static final String IDEMPOTENCY_KEY_HEADER = %1;\n\n"_s.arg(quoted(p.idempotency.header));
    if (shape.policy.limits.connectTimeout) {
        unit.imports << u"java.time.Duration"_s;
        c += u"    /** The client every attempt goes through, with the policy's connect timeout. */\n"
             "    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(%1).build();\n\n"_s.arg(javaDuration(*shape.policy.limits.connectTimeout));
    } else {
        c += u"    /** The client every attempt goes through. */\n    private static final HttpClient CLIENT = HttpClient.newHttpClient();\n\n"_s;
    }

    // The breaker.
    qsizetype breakerIndex = -1;
    const ResilienceStrategy* breaker = strategyOf(p, ResilienceStrategy::Kind::CircuitBreaker, &breakerIndex);
    QString breakerMethod;
    if (breaker) {
        const QString path = u"pipeline[%1]"_s.arg(breakerIndex);
        r4jBreakerLosses(*breaker, path, lost);
        unit.imports << u"io.github.resilience4j.circuitbreaker.CircuitBreaker"_s << u"io.github.resilience4j.circuitbreaker.CircuitBreakerConfig"_s
                     << u"java.time.Duration"_s;
        const CircuitBreakerOptions& b = breaker->breaker;
        const R4jWindow w = windowOf(b);
        QStringList failures;
        for (qsizetype i = 0; i < breaker->failures.size(); ++i) {
            const QString cond = javaCondition(breaker->failures.at(i), true, unit);
            if (cond.isEmpty())
                lost.add(path + u".failures[%1]"_s.arg(i), u"a failure judged by the request's method, key or an earlier lost answer: resilience4j's breaker sees the outcome only"_s);
            else
                failures << cond;
        }
        if (failures.size() > 1)
            for (QString& f : failures)
                f = u"("_s + f + u')';
        c += u"    /** %1: resilience4j's circuit breaker, one for the application. */\n"
             "    private static final CircuitBreaker BREAKER = CircuitBreaker.of(%2, CircuitBreakerConfig.custom()\n"
             "        .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.%3)\n"
             "        .slidingWindowSize(%4)%5\n"
             "        .minimumNumberOfCalls(%6)\n"
             "        .failureRateThreshold(%7) // percent\n"
             "        .waitDurationInOpenState(%8)\n"
             "        .permittedNumberOfCallsInHalfOpenState(%9)\n"_s.arg(path, quoted(p.name), w.type).arg(w.size)
                 .arg(w.type == u"TIME_BASED"_s ? u" // seconds"_s : QString())
                 .arg(w.minimum)
                 .arg(floatText(w.ratePercent), javaDuration(b.breakDuration))
                 .arg(b.halfOpenProbes);
        if (b.transition == CircuitBreakerOptions::Transition::Timer)
            c += u"        .automaticTransitionFromOpenToHalfOpenEnabled(true)\n"_s;
        c += u"        .recordResult(result -> result instanceof HttpResponse<?> response && isBreakerFailure(Attempt.answered(response)))\n"
             "        .recordException(e -> isBreakerFailure(Attempt.failed(e)))\n        .build());\n\n"_s;
        breakerMethod = u"    /** What the circuit breaker counts as a failure (%1.failures). */\n"
                        "    private static boolean isBreakerFailure(Attempt a) {\n        return %2;\n    }\n\n"_s.arg(path,
            failures.isEmpty() ? u"false"_s : failures.join(u"\n            || "_s));
    }

    c += u"    private %1() {\n    }\n\n"_s.arg(cls);
    c += u"    /**\n     * Sends one logical request under the \"%1\" policy and returns the last answer. The request is sent again\n"
         "     * on every attempt: its body publisher must allow that (ofString and ofByteArray do).\n     */\n"
         "    public static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {\n"_s.arg(p.name);
    if (p.idempotency.autoAdd)
        c += u"        RetryCall call = new RetryCall(withIdempotencyKey(request)); // one key per logical request, on every attempt\n"_s;
    else
        c += u"        RetryCall call = new RetryCall(request);\n"_s;
    c += u"        // A Retry per call: its predicates and wait read this call's state.\n"
         "        Retry retry = Retry.of(%1, call.retryConfig());\n"
         "        CheckedSupplier<HttpResponse<String>> attempt = () -> CLIENT.send(call.attemptRequest(), HttpResponse.BodyHandlers.ofString());\n"_s.arg(quoted(p.name));
    const bool breakerOutside = breaker && breakerIndex < retryIndexOf(p);
    if (breaker && !breakerOutside)
        c += u"        attempt = CircuitBreaker.decorateCheckedSupplier(BREAKER, attempt); // pipeline[%1]: each attempt\n"_s.arg(breakerIndex);
    c += u"        attempt = Retry.decorateCheckedSupplier(retry, attempt);\n"_s;
    if (breakerOutside)
        c += u"        attempt = CircuitBreaker.decorateCheckedSupplier(BREAKER, attempt); // pipeline[%1]: the whole request\n"_s.arg(breakerIndex);
    c += u"        try {\n            return attempt.get();\n"
         "        } catch (IOException | InterruptedException | RuntimeException | Error e) {\n            throw e;\n"
         "        } catch (Throwable e) {\n            throw new IOException(e);\n        }\n    }\n\n"_s;
    if (p.idempotency.autoAdd) {
        unit.imports << u"java.util.UUID"_s;
        QString value = p.idempotency.prefix.isEmpty() ? u"UUID.randomUUID().toString()"_s : u"%1 + UUID.randomUUID()"_s.arg(quoted(p.idempotency.prefix));
        if (p.idempotency.format == KeyFormat::Quoted)
            value = u"'\"' + %1 + '\"'"_s.arg(value); // an sf-string
        const QStringList methods = p.idempotency.methods;
        QStringList quotedMethods;
        for (const QString& m : methods)
            quotedMethods << quoted(m);
        c += u"    /** REQUEST with a new key (a random UUID) when its method takes one and it carries none. */\n"
             "    private static HttpRequest withIdempotencyKey(HttpRequest request) {\n"
             "        if (!in(request.method().toUpperCase(Locale.ROOT), %1) || request.headers().firstValue(IDEMPOTENCY_KEY_HEADER).isPresent()) {\n"
             "            return request;\n        }\n"
             "        return HttpRequest.newBuilder(request, (name, value) -> true).header(IDEMPOTENCY_KEY_HEADER, %2).build();\n    }\n\n"_s
                 .arg(quotedMethods.join(u", "_s), value);
    }
    c += breakerMethod;
    writeJavaHelpers(unit);
    c += unit.members;
    while (c.endsWith(u"\n\n"_s))
        c.chop(1);
    c += u"}\n"_s;
    CodeExport e;
    e.lost = lost.items();
    e.code = javaFile(headerComment(CommentStyle { u"// "_s }, p, u"resilience4j"_s, version, e.lost), unit, c);
    return e;
}

CodeExport resilience4jYamlUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    TargetAbilities can;
    can.circuitBreaker = true;
    loseUnsupported(p, can, u"Spring Boot's resilience4j.retry"_s, lost);
    PipelineShape shape = readPipeline(p);
    const RetryPolicy& q = shape.policy;
    const bool hasRetry = p.pipeline.isEmpty() || retryIndexOf(p) >= 0;
    const int attempts = hasRetry ? q.limits.maxAttempts : 1;
    const R4jInterval interval = r4jInterval(q, &lost);
    for (qsizetype i = 0; i < q.hints.size(); ++i)
        lost.add(u"hints[%1]"_s.arg(i), u"%1 from the server: waits the server asks for need an intervalBiFunction (Java), which the properties can only name"_s.arg(q.hints.at(i).header));
    if (p.idempotency.autoAdd)
        lost.add(u"idempotency"_s, u"adding an idempotency key: properties cannot mint one (set it on the request once per call)"_s);

    // What is retried: every exception, the call throwing for transport failures and statuses ≥ 400.
    qsizetype breakerIndex = -1;
    const ResilienceStrategy* breaker = strategyOf(p, ResilienceStrategy::Kind::CircuitBreaker, &breakerIndex);
    if (hasRetry && attempts > 1) {
        bool same = ProxyOutcomes::conditionsBeyondStatus(q).isEmpty();
        for (const QString& m : ProxyOutcomes::methods())
            for (const bool key : { false, true })
                same = same && ProxyOutcomes::retried(q, m, key) == everythingThrown();
        if (!same)
            lost.add(u"rules"_s, u"what is retried: the properties retry every exception the decorated call throws (retryExceptions and ignoreExceptions name classes, not HTTP outcomes); it is taken to throw for every transport failure and status ≥ 400"_s);
    }

    QStringList header;
    for (const QString& line : headerComment(CommentStyle { u"# "_s }, p, u"resilience4j YAML"_s, version, lost.items()).split(u'\n', Qt::SkipEmptyParts))
        header << line;
    const QString name = instanceName(p.name);
    QString y = header.join(u'\n') + u"\n# Spring Boot binds it to the Retry named \"%1\" (resilience4j-spring-boot3, 2.x).\n"_s.arg(p.name);
    y += u"resilience4j:\n  retry:\n    instances:\n      %1:\n"_s.arg(name);
    y += u"        maxAttempts: %1 # attempts, the first included\n"_s.arg(attempts);
    y += u"        waitDuration: %1\n"_s.arg(springDuration(interval.wait));
    if (interval.exponential) {
        y += u"        enableExponentialBackoff: true\n        exponentialBackoffMultiplier: %1\n"_s.arg(numberText(interval.multiplier));
        if (interval.max)
            y += u"        exponentialMaxWaitDuration: %1\n"_s.arg(springDuration(*interval.max));
    }
    if (interval.randomized)
        y += u"        enableRandomizedWait: true\n        randomizedWaitFactor: %1\n"_s.arg(numberText(interval.factor));
    if (breaker) {
        const QString path = u"pipeline[%1]"_s.arg(breakerIndex);
        r4jBreakerLosses(*breaker, path, lost);
        if (!(ProxyOutcomes::matchedBy(breaker->failures) == everythingThrown())
            || !std::all_of(breaker->failures.cbegin(), breaker->failures.cend(), [](const RuleCondition& c) {
                   return c.methods.isEmpty() && !c.idempotencyKey && !c.body && c.headers.isEmpty() && !c.afterLostAnswer;
               }))
            lost.add(path + u".failures"_s, u"what counts as a failure: the properties record every exception the decorated call throws (recordExceptions names classes)"_s);
        if (hasRetry && breakerIndex < retryIndexOf(p))
            lost.add(path + u".order"_s, u"the breaker outside the retry: Spring Boot's aspects put the Retry outside the CircuitBreaker unless the aspect orders are set"_s);
        const CircuitBreakerOptions& b = breaker->breaker;
        const R4jWindow w = windowOf(b);
        y += u"  circuitbreaker:\n    instances:\n      %1:\n"_s.arg(name);
        y += u"        slidingWindowType: %1\n        slidingWindowSize: %2%3\n"_s.arg(w.type).arg(w.size).arg(w.type == u"TIME_BASED"_s ? u" # seconds"_s : QString());
        y += u"        minimumNumberOfCalls: %1\n        failureRateThreshold: %2 # percent\n"_s.arg(w.minimum).arg(numberText(w.ratePercent));
        y += u"        waitDurationInOpenState: %1\n        permittedNumberOfCallsInHalfOpenState: %2\n"_s.arg(springDuration(b.breakDuration)).arg(b.halfOpenProbes);
        if (b.transition == CircuitBreakerOptions::Transition::Timer)
            y += u"        automaticTransitionFromOpenToHalfOpenEnabled: true\n"_s;
    }
    // The header again, now that the breaker's losses are known.
    QString head = headerComment(CommentStyle { u"# "_s }, p, u"resilience4j YAML"_s, version, lost.items());
    y = head + y.mid(y.indexOf(u"# Spring Boot binds"_s));
    return CodeExport { y, lost.items() };
}

} // namespace

QList<CodeTarget> javaTargets()
{
    CodeTarget code;
    code.id = u"resilience4j"_s;
    code.title = u"resilience4j"_s;
    code.language = u"java"_s;
    code.versions = QStringList { u"2"_s };
    code.runtime = u"JVM"_s;
    code.generate = resilience4jUnit;

    CodeTarget yaml;
    yaml.id = u"resilience4j-yaml"_s;
    yaml.title = u"resilience4j YAML"_s;
    yaml.language = u"yaml"_s;
    yaml.versions = QStringList { u"2"_s };
    yaml.runtime = u"JVM (Spring Boot application.yaml)"_s;
    yaml.generate = resilience4jYamlUnit;
    yaml.import = importResilience4jYaml;
    return { code, yaml };
}
