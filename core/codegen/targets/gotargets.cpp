// SPDX-License-Identifier: GPL-3.0-or-later
// The cenkalti/backoff and hashicorp/go-retryablehttp targets (shared/reference/resilience-fleets.md §5,
// retry-systems.md). Both send with net/http; the policy's rules, hints and exact curve are in gocode.cpp.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/targets/gocode.h"

using namespace Qt::StringLiterals;

namespace {

TargetAbilities goAbilities()
{
    TargetAbilities can;
    can.deadline = true; // retryState.wait
    can.attemptTimeout = true; // http.Client.Timeout
    can.connectTimeout = true; // net.Dialer.Timeout
    can.connectionPool = true; // http.Transport.MaxConnsPerHost
    return can;
}

// The *http.Client the unit sends with: the policy's timeouts and pool, or the default client.
QString httpClient(const RetryPolicy& p, GoUnit& unit)
{
    const Limits& l = p.limits;
    if (!l.attemptTimeout && !l.connectTimeout && !l.connectionsPerHost)
        return u"\thttpClient := &http.Client{}\n"_s;
    QString out;
    if (l.connectTimeout || l.connectionsPerHost) {
        out += u"\ttransport := http.DefaultTransport.(*http.Transport).Clone()\n"_s;
        if (l.connectTimeout) {
            unit.imports << u"net"_s;
            out += u"\ttransport.DialContext = (&net.Dialer{Timeout: %1}).DialContext // connect timeout\n"_s.arg(goDuration(*l.connectTimeout));
        }
        if (l.connectionsPerHost)
            out += u"\ttransport.MaxConnsPerHost = %1\n"_s.arg(*l.connectionsPerHost);
    }
    out += u"\thttpClient := &http.Client{"_s;
    QStringList fields;
    if (l.attemptTimeout)
        fields << u"Timeout: %1 /* one attempt */"_s.arg(goDuration(*l.attemptTimeout));
    if (l.connectTimeout || l.connectionsPerHost)
        fields << u"Transport: transport"_s;
    return out + fields.join(u", "_s) + u"}\n"_s;
}

QString sendDoc(const RetryPolicy& p, const QString& library)
{
    return u"// Send sends one logical request under the \"%1\" retry policy through %2 and returns the last\n"
           "// answer, or the last error. BODY is sent again on every attempt.\n"_s.arg(p.name, library);
}

CodeExport retryablehttpUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    loseUnsupported(p, goAbilities(), u"go-retryablehttp"_s, lost);
    GoUnit unit;
    const bool native = retryablehttpCurveIsExact(p);
    unit.imports << u"context"_s << u"github.com/hashicorp/go-retryablehttp"_s << u"net/http"_s << u"time"_s;
    writeGoState(p, native ? GoCurve::RetryablehttpDefault : GoCurve::Own, unit, lost);
    QString send = sendDoc(p, u"go-retryablehttp"_s);
    send += u"func Send(ctx context.Context, method, url string, body []byte, header http.Header) (*http.Response, error) {\n"
            "\treq, err := retryablehttp.NewRequestWithContext(ctx, method, url, body)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n"
            "\tfor name, values := range header {\n\t\treq.Header[name] = values\n\t}\n"_s;
    send += goStateSetup(p, u"req.Header"_s, unit);
    send += httpClient(p, unit);
    const QString pad = native ? u"  "_s : QString(); // gofmt aligns the values of consecutive fields
    send += u"\tvar next time.Duration\n\tclient := &retryablehttp.Client{\n\t\tHTTPClient: %3httpClient,\n"
            "\t\tRetryMax:   %3%1, // retries after the first attempt (%2 attempts in all)\n"_s.arg(QString::number(p.maxRetries()), QString::number(p.limits.maxAttempts), pad);
    if (native)
        send += u"\t\tRetryWaitMin: %1,\n\t\tRetryWaitMax: %2,\n"_s.arg(goDuration(p.backoff.base), goDuration(*p.backoff.cap));
    send += u"\t\t// The policy's rules decide, not DefaultRetryPolicy (which retries any method, a POST too).\n"
            "\t\tCheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {\n"
            "\t\t\tif ctx.Err() != nil {\n\t\t\t\treturn false, ctx.Err()\n\t\t\t}\n"
            "\t\t\tif s.judge(resp, err) != verdictRetry {\n\t\t\t\treturn false, nil\n\t\t\t}\n"
            "\t\t\twait, ok := s.wait(resp)\n\t\t\tnext = wait\n\t\t\treturn ok, nil\n\t\t},\n"
            "\t\t// The wait CheckRetry chose: the policy's backoff, or what the server asked within the policy's limits.\n"
            "\t\tBackoff: func(_, _ time.Duration, _ int, _ *http.Response) time.Duration { return next },\n"
            "\t\t// Hand back the last answer (the caller reads its status) instead of an error.\n"
            "\t\tErrorHandler: retryablehttp.PassthroughErrorHandler,\n\t}\n"
            "\treturn client.Do(req)\n}\n\n"_s;
    unit.body = send + unit.body;
    CodeExport e;
    e.lost = lost.items();
    e.code = goFile(headerComment(CommentStyle { u"// "_s }, p, u"hashicorp/go-retryablehttp"_s, version, e.lost), unit);
    return e;
}

CodeExport cenkaltiUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    loseUnsupported(p, goAbilities(), u"cenkalti/backoff"_s, lost);
    GoUnit unit;
    const bool v5 = version == u"5"_s;
    const bool native = cenkaltiCurveIsExact(p);
    const QString lib = v5 ? u"github.com/cenkalti/backoff/v5"_s : u"github.com/cenkalti/backoff/v4"_s;
    unit.imports << u"bytes"_s << u"context"_s << u"io"_s << lib << u"net/http"_s << u"time"_s;
    writeGoState(p, native ? GoCurve::CenkaltiExponential : GoCurve::Own, unit, lost);
    QString send = sendDoc(p, u"cenkalti/backoff v"_s + version);
    send += u"func Send(ctx context.Context, method, url string, body []byte, header http.Header) (*http.Response, error) {\n"
            "\theader = header.Clone()\n\tif header == nil {\n\t\theader = http.Header{}\n\t}\n"_s;
    send += goStateSetup(p, u"header"_s, unit);
    if (native)
        send += u"\ts.curve = newBackOff()\n"_s;
    send += httpClient(p, unit);
    send += u"\twaits := &chosenWait{}\n"_s;
    send += v5 ? u"\toperation := func() (*http.Response, error) {\n"_s : u"\tvar resp *http.Response\n\toperation := func() error {\n"_s;
    send += u"\t\treq, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))\n"
            "\t\tif err != nil {\n\t\t\treturn %1backoff.Permanent(err)\n\t\t}\n"
            "\t\treq.Header = header.Clone()\n\t\tanswer, err := httpClient.Do(req)\n"_s.arg(v5 ? u"nil, "_s : QString());
    if (!v5)
        send += u"\t\tresp = answer\n"_s;
    const QString give = v5 ? u"answer, "_s : QString();
    send += u"\t\tswitch s.judge(answer, err) {\n\t\tcase verdictRetry:\n"
            "\t\t\tif err == nil {\n\t\t\t\t// Keep the answer readable in case it is the last one.\n"
            "\t\t\t\tkept, _ := io.ReadAll(answer.Body)\n\t\t\t\tanswer.Body.Close()\n\t\t\t\tanswer.Body = io.NopCloser(bytes.NewReader(kept))\n"
            "\t\t\t\terr = &statusError{answer.StatusCode}\n\t\t\t}\n"
            "\t\t\twait, ok := s.wait(answer)\n\t\t\tif !ok {\n\t\t\t\treturn %1backoff.Permanent(err)\n\t\t\t}\n"
            "\t\t\twaits.next = wait\n\t\t\treturn %1err\n"
            "\t\tdefault: // a success, or final: an error ends the retries, an answer is the caller's to read\n"
            "\t\t\tif err != nil {\n\t\t\t\treturn %1backoff.Permanent(err)\n\t\t\t}\n\t\t\treturn %1nil\n\t\t}\n\t}\n"_s.arg(give);
    if (v5) {
        send += u"\t// WithMaxTries counts attempts, the first included. WithMaxElapsedTime(0): not v5's default 15\n"
                "\t// minutes; the policy's deadline, if any, is kept by retryState.wait.\n"
                "\tresp, err := backoff.Retry(ctx, operation, backoff.WithBackOff(waits), backoff.WithMaxTries(%1),\n"
                "\t\tbackoff.WithMaxElapsedTime(0))\n"_s.arg(p.limits.maxAttempts);
        send += u"\tvar failed *statusError\n\tif errors.As(err, &failed) {\n\t\treturn resp, nil // the last answer, retries spent\n\t}\n\treturn resp, err\n}\n\n"_s;
        unit.imports << u"errors"_s;
    } else {
        send += u"\terr := backoff.Retry(operation, backoff.WithContext(backoff.WithMaxRetries(waits, %1), ctx)) // retries after the first attempt\n"_s
                    .arg(p.maxRetries());
        send += u"\tvar failed *statusError\n\tif err != nil && !errors.As(err, &failed) {\n\t\treturn nil, err\n\t}\n\treturn resp, nil\n}\n\n"_s;
        unit.imports << u"errors"_s;
    }
    send += u"// statusError is an answer the policy retries, as an error for backoff.Retry.\ntype statusError struct{ status int }\n\n"
            "func (e *statusError) Error() string { return http.StatusText(e.status) }\n\n"
            "// chosenWait hands backoff.Retry the wait retryState chose after each failed attempt.\n"
            "type chosenWait struct{ next time.Duration }\n\n"
            "func (w *chosenWait) NextBackOff() time.Duration { return w.next }\n\nfunc (w *chosenWait) Reset() {}\n\n"_s;
    if (native) {
        const Backoff& b = p.backoff;
        send += u"// newBackOff is the policy's curve: %1 ms × %2 per retry%3%4.\n"_s.arg(b.base.count()).arg(numberText(b.multiplier),
            b.cap ? u", at most %1 ms"_s.arg(b.cap->count()) : QString(),
            p.jitter.kind == JitterKind::Proportional ? u", ±%1 %"_s.arg(numberText(p.jitter.factor * 100)) : QString());
        send += u"func newBackOff() *backoff.ExponentialBackOff {\n\tb := backoff.NewExponentialBackOff()\n"
                "\tb.InitialInterval = %1\n\tb.RandomizationFactor = %2\n\tb.Multiplier = %3\n\tb.MaxInterval = %4\n"
                "\tb.MaxElapsedTime = 0 // the policy's deadline, if any, is kept by retryState.wait\n\tb.Reset()\n\treturn b\n}\n\n"_s
                    .arg(goDuration(b.base), numberText(p.jitter.kind == JitterKind::Proportional ? p.jitter.factor : 0.0), numberText(b.multiplier),
                        b.cap ? goDuration(*b.cap) : u"time.Duration(1<<63 - 1)"_s);
    }
    unit.body = send + unit.body;
    CodeExport e;
    e.lost = lost.items();
    e.code = goFile(headerComment(CommentStyle { u"// "_s }, p, u"cenkalti/backoff"_s, version, e.lost), unit);
    return e;
}

QString proofMain()
{
    return u"// SPDX-License-Identifier: GPL-3.0-or-later\n// Sends RETRYLAB_METHOD to RETRYLAB_URL through the exported unit's Send (retrylab conform).\n"
           "package main\n\nimport (\n\t\"context\"\n\t\"net/http\"\n\t\"os\"\n)\n\n"
           "func main() {\n\tmethod := os.Getenv(\"RETRYLAB_METHOD\")\n\tvar body []byte\n\theader := http.Header{}\n"
           "\tif method == \"POST\" {\n\t\tbody = []byte(`{\"amount\": 100}`)\n\t\theader.Set(\"Content-Type\", \"application/json\")\n\t}\n"
           "\tif key := os.Getenv(\"RETRYLAB_IDEMPOTENCY_KEY\"); key != \"\" {\n\t\theader.Set(IdempotencyKeyHeader, key)\n\t}\n"
           "\tresp, err := Send(context.Background(), method, os.Getenv(\"RETRYLAB_URL\"), body, header)\n"
           "\tif err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 {\n\t\tos.Exit(1)\n\t}\n}\n"_s;
}

// Debian's golang-github-cenkalti-backoff-dev lays v4 out at github.com/cenkalti/backoff (no /v4 folder), so
// the client builds in GOPATH mode with a one-link overlay that names it by its module path.
ProofClient goProof(const QString& version, const QString& package)
{
    ProofClient c;
    c.fileName = u"main.go"_s;
    c.text = proofMain();
    c.command = QStringList { u"sh"_s, u"-c"_s,
        u"mkdir -p .gopath/src/github.com/cenkalti/backoff && ln -sfn /usr/share/gocode/src/github.com/cenkalti/backoff "
        ".gopath/src/github.com/cenkalti/backoff/v4 && GO111MODULE=off GOPATH=\"$PWD/.gopath:/usr/share/gocode\" go run ."_s };
    c.needs = u"Go with Debian's %1 (GOPATH mode, offline)"_s.arg(package);
    c.packages = QStringList { package };
    Q_UNUSED(version);
    return c;
}

} // namespace

QList<CodeTarget> goTargets()
{
    CodeTarget cenkalti;
    cenkalti.id = u"cenkalti-backoff"_s;
    cenkalti.title = u"cenkalti/backoff"_s;
    cenkalti.language = u"go"_s;
    cenkalti.versions = QStringList { u"4"_s, u"5"_s };
    cenkalti.runtime = u"Go"_s;
    cenkalti.generate = cenkaltiUnit;
    cenkalti.proofClient = [](const QString&, const QString& version) {
        ProofClient c = goProof(version, u"golang-github-cenkalti-backoff-dev"_s);
        if (version == u"5"_s)
            c.needs = u"Go with github.com/cenkalti/backoff/v5 in a module (Debian 12 ships only v4)"_s;
        return c;
    };

    CodeTarget retryable;
    retryable.id = u"go-retryablehttp"_s;
    retryable.title = u"hashicorp/go-retryablehttp"_s;
    retryable.language = u"go"_s;
    retryable.versions = QStringList { u"0.7"_s };
    retryable.runtime = u"Go"_s;
    retryable.generate = retryablehttpUnit;
    retryable.proofClient = [](const QString&, const QString& version) { return goProof(version, u"golang-github-hashicorp-go-retryablehttp-dev"_s); };
    return { cenkalti, retryable };
}
