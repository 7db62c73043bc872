// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a urllib3 `Retry(...)` call back into a policy (issue 30 §4). Facts: urllib3 1.26.12
// src/urllib3/util/retry.py (Retry.__init__, is_retry, increment, get_backoff_time, sleep) and 2.x's
// backoff_max and backoff_jitter; retry-systems.md §4a.
#include "codegen/targets/pythonimport.h"

#include "codegen/codewriter.h"
#include "policy/presetcatalog.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kMaxInput = 64 * 1024;
constexpr int kMaxNesting = 8;

// ---- Tokens ------------------------------------------------------------------------------------------

struct Token
{
    enum Kind { Name, Number, String, Op, End } kind = End;
    QString text; // a name, a number's text, a string's value, an operator character
    int line = 1;
};

// Python's tokens as far as a Retry call needs them: names, numbers, strings (any quote, with prefixes and
// escapes), one-character operators; comments, line joins and whitespace skipped.
QList<Token> tokenize(const QString& s, QString* problem)
{
    QList<Token> out;
    int line = 1;
    qsizetype i = 0;
    const qsizetype n = s.size();
    while (i < n) {
        const QChar c = s.at(i);
        if (c == u'\n') {
            ++line;
            ++i;
        } else if (c.isSpace() || c == u'\\') {
            ++i;
        } else if (c == u'#') {
            while (i < n && s.at(i) != u'\n')
                ++i;
        } else if (c.isLetter() || c == u'_') {
            const qsizetype start = i;
            while (i < n && (s.at(i).isLetterOrNumber() || s.at(i) == u'_'))
                ++i;
            const QString word = s.mid(start, i - start);
            // A string prefix (r, b, u, f, rb…) directly before a quote belongs to the string.
            const bool prefix = word.size() <= 2
                && std::all_of(word.cbegin(), word.cend(), [](QChar w) { return u"rbufRBUF"_s.contains(w); });
            if (i < n && (s.at(i) == u'"' || s.at(i) == u'\'') && prefix)
                continue;
            out.append({ Token::Name, word, line });
        } else if (c.isDigit() || (c == u'.' && i + 1 < n && s.at(i + 1).isDigit())) {
            const qsizetype start = i;
            while (i < n && (s.at(i).isLetterOrNumber() || s.at(i) == u'.' || s.at(i) == u'_'
                       || ((s.at(i) == u'+' || s.at(i) == u'-') && (s.at(i - 1) == u'e' || s.at(i - 1) == u'E'))))
                ++i;
            out.append({ Token::Number, s.mid(start, i - start), line });
        } else if (c == u'"' || c == u'\'') {
            const bool triple = s.mid(i, 3) == QString(3, c);
            const QString close = triple ? QString(3, c) : QString(c);
            const int startLine = line;
            i += close.size();
            QString value;
            bool closed = false;
            while (i < n) {
                if (s.mid(i, close.size()) == close) {
                    i += close.size();
                    closed = true;
                    break;
                }
                if (s.at(i) == u'\n') {
                    if (!triple)
                        break;
                    ++line;
                }
                if (s.at(i) == u'\\' && i + 1 < n) {
                    value += s.at(i + 1);
                    i += 2;
                    continue;
                }
                value += s.at(i++);
            }
            if (!closed) {
                *problem = u"Line %1: a string is not closed."_s.arg(startLine);
                return {};
            }
            out.append({ Token::String, value, startLine });
        } else {
            out.append({ Token::Op, QString(c), line });
            ++i;
        }
    }
    out.append({ Token::End, {}, line });
    return out;
}

// ---- Values ------------------------------------------------------------------------------------------

struct Value
{
    enum Kind { None, Bool, Int, Float, Str, Collection, DefaultMethods, Expression } kind = None;
    bool boolean = false;
    qint64 integer = 0;
    double number = 0;
    QString text; // Str; Expression: the source words, for the lost sentence
    QList<Value> items; // Collection
    bool isNumber() const { return kind == Int || kind == Float || kind == Bool; }
    double asDouble() const { return kind == Float ? number : double(kind == Bool ? boolean : integer); }
};

class Parser
{
public:
    explicit Parser(const QList<Token>& tokens) : m_t(tokens) { }

    // The index just past the opening parenthesis of the first Retry call, or -1.
    qsizetype findCall() const
    {
        for (qsizetype i = 0; i + 1 < m_t.size(); ++i) {
            if (m_t.at(i).kind != Token::Name || m_t.at(i).text != u"Retry"_s || !isOp(i + 1, u'('))
                continue;
            // Bare, or qualified by urllib3. / urllib3.util.retry. only (not a subclass's attribute).
            QStringList qualifier;
            qsizetype j = i;
            while (j >= 2 && isOp(j - 1, u'.') && m_t.at(j - 2).kind == Token::Name) {
                qualifier.prepend(m_t.at(j - 2).text);
                j -= 2;
            }
            const QString q = qualifier.join(u'.');
            if (q.isEmpty() || q == u"urllib3"_s || q == u"urllib3.util.retry"_s || q == u"urllib3.util"_s)
                return i + 2;
        }
        return -1;
    }

    bool isOp(qsizetype i, QChar c) const
    {
        return i < m_t.size() && m_t.at(i).kind == Token::Op && m_t.at(i).text.at(0) == c;
    }

    const Token& at(qsizetype i) const { return m_t.at(std::min(i, m_t.size() - 1)); }

    // A literal at I (advancing I past it); an Expression value for anything else, I past it too. False with
    // *problem on input that is not Python at all (unbalanced, too deep).
    bool value(qsizetype& i, int depth, Value* out, QString* problem)
    {
        if (depth > kMaxNesting) {
            *problem = u"Line %1: the arguments nest deeper than %2 levels."_s.arg(at(i).line).arg(kMaxNesting);
            return false;
        }
        const qsizetype start = i;
        if (literal(i, depth, out, problem)) {
            if (isOp(i, u',') || isOp(i, u')'))
                return true;
        }
        if (!problem->isEmpty())
            return false;
        // Not a literal: skip to the end of the expression (the next comma or closing parenthesis at this
        // level) and keep its words.
        i = start;
        int level = 0;
        QStringList words;
        while (at(i).kind != Token::End) {
            const Token& t = at(i);
            if (t.kind == Token::Op && (t.text == u"("_s || t.text == u"["_s || t.text == u"{"_s)) {
                if (++level > kMaxNesting * 4) {
                    *problem = u"Line %1: the arguments nest too deeply."_s.arg(t.line);
                    return false;
                }
            } else if (t.kind == Token::Op && (t.text == u")"_s || t.text == u"]"_s || t.text == u"}"_s)) {
                if (level == 0)
                    break;
                --level;
            } else if (level == 0 && isOp(i, u',')) {
                break;
            } else if (level == 0 && isOp(i, u'=') && !isOp(i + 1, u'=') && !isOp(i - 1, u'=') && !isOp(i - 1, u'!')
                && !isOp(i - 1, u'<') && !isOp(i - 1, u'>')) {
                *problem = u"Line %1: expected , or ) before %2= in the Retry(...) call."_s.arg(t.line).arg(at(i - 1).text);
                return false;
            }
            if (words.size() < 12)
                words << (t.kind == Token::String ? u"\""_s + t.text + u'"' : t.text);
            ++i;
        }
        if (at(i).kind == Token::End) {
            *problem = u"Line %1: the Retry(...) call is not closed."_s.arg(at(start).line);
            return false;
        }
        out->kind = Value::Expression;
        out->text = words.join(QString());
        return true;
    }

private:
    bool literal(qsizetype& i, int depth, Value* out, QString* problem)
    {
        const Token& t = at(i);
        if (t.kind == Token::Op && t.text == u"-"_s && at(i + 1).kind == Token::Number) {
            ++i;
            if (!literal(i, depth, out, problem))
                return false;
            out->integer = -out->integer;
            out->number = -out->number;
            return true;
        }
        if (t.kind == Token::Number) {
            const QString digits = QString(t.text).remove(u'_');
            bool ok = false;
            out->integer = digits.toLongLong(&ok);
            if (ok) {
                out->kind = Value::Int;
                out->number = double(out->integer);
            } else {
                out->number = digits.toDouble(&ok);
                out->kind = Value::Float;
            }
            ++i;
            return ok;
        }
        if (t.kind == Token::String) {
            out->kind = Value::Str;
            out->text = t.text;
            ++i;
            while (at(i).kind == Token::String) // implicit concatenation
                out->text += at(i++).text;
            return true;
        }
        if (t.kind == Token::Name) {
            if (t.text == u"None"_s || t.text == u"True"_s || t.text == u"False"_s) {
                out->kind = t.text == u"None"_s ? Value::None : Value::Bool;
                out->boolean = t.text == u"True"_s;
                ++i;
                return true;
            }
            // Retry.DEFAULT_ALLOWED_METHODS, urllib3.Retry.DEFAULT_METHOD_WHITELIST…
            qsizetype j = i;
            QStringList dotted { t.text };
            while (isOp(j + 1, u'.') && at(j + 2).kind == Token::Name) {
                dotted << at(j + 2).text;
                j += 2;
            }
            const QString last = dotted.last();
            if (dotted.size() >= 2 && dotted.at(dotted.size() - 2) == u"Retry"_s
                && (last == u"DEFAULT_ALLOWED_METHODS"_s || last == u"DEFAULT_METHOD_WHITELIST"_s)) {
                out->kind = Value::DefaultMethods;
                i = j + 1;
                return true;
            }
            if ((t.text == u"frozenset"_s || t.text == u"set"_s || t.text == u"tuple"_s || t.text == u"list"_s)
                && isOp(i + 1, u'(')) {
                i += 2;
                if (isOp(i, u')')) {
                    ++i;
                    out->kind = Value::Collection;
                    return true;
                }
                if (!literal(i, depth + 1, out, problem) || out->kind != Value::Collection || !isOp(i, u')'))
                    return false;
                ++i;
                return true;
            }
            return false;
        }
        if (t.kind == Token::Op && (t.text == u"["_s || t.text == u"("_s || t.text == u"{"_s)) {
            if (depth + 1 > kMaxNesting) {
                *problem = u"Line %1: the arguments nest deeper than %2 levels."_s.arg(t.line).arg(kMaxNesting);
                return false;
            }
            const QChar close = t.text == u"["_s ? u']' : t.text == u"("_s ? u')' : u'}';
            ++i;
            out->kind = Value::Collection;
            while (!isOp(i, close)) {
                Value item;
                if (!literal(i, depth + 1, &item, problem) || item.kind == Value::Collection)
                    return false;
                out->items << item;
                if (isOp(i, u','))
                    ++i;
                else if (!isOp(i, close))
                    return false;
            }
            ++i;
            return true;
        }
        return false;
    }

    const QList<Token>& m_t;
};

// ---- Arguments onto the policy -----------------------------------------------------------------------

const QStringList kDefaultMethods { u"HEAD"_s, u"GET"_s, u"PUT"_s, u"DELETE"_s, u"OPTIONS"_s, u"TRACE"_s };

struct Call
{
    QList<QPair<QString, Value>> args; // in the order written
    QList<int> lines;
};

QString describe(const Value& v)
{
    return v.kind == Value::Expression ? v.text : QString();
}

// A count argument (total, connect, read, status, other): nullopt for None, -1 for False ("raise at once").
std::optional<qint64> countOf(const Value& v, bool* ok)
{
    *ok = true;
    if (v.kind == Value::None)
        return std::nullopt;
    if (v.kind == Value::Bool)
        return v.boolean ? 1 : -1;
    if (v.kind == Value::Int && v.integer >= 0)
        return v.integer;
    *ok = false;
    return std::nullopt;
}

std::optional<QStringList> methodsOf(const Value& v)
{
    if (v.kind == Value::DefaultMethods)
        return kDefaultMethods;
    if (v.kind == Value::None || (v.kind == Value::Bool && !v.boolean))
        return QStringList(); // falsy: every method
    if (v.kind != Value::Collection)
        return std::nullopt;
    QStringList out;
    for (const Value& item : v.items) {
        if (item.kind != Value::Str)
            return std::nullopt;
        if (!out.contains(item.text.toUpper()))
            out << item.text.toUpper();
    }
    return out;
}

std::optional<QList<int>> statusesOf(const Value& v)
{
    if (v.kind == Value::None)
        return QList<int>();
    if (v.kind != Value::Collection)
        return std::nullopt;
    QList<int> out;
    for (const Value& item : v.items) {
        if (item.kind != Value::Int || item.integer < 100 || item.integer > 999)
            return std::nullopt;
        if (!out.contains(int(item.integer)))
            out << int(item.integer);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<Millis> secondsOf(const Value& v, bool* whole)
{
    *whole = true;
    if (!v.isNumber() || v.asDouble() < 0 || v.asDouble() > 1e7)
        return std::nullopt;
    const double ms = v.asDouble() * 1000;
    *whole = std::abs(ms - std::round(ms)) < 1e-6;
    return Millis(qint64(std::round(ms)));
}

QList<StatusRange> ranges(const QList<int>& codes)
{
    QList<StatusRange> out;
    for (int c : codes)
        out.append({ c, c });
    return out;
}

} // namespace

CodeImport importUrllib3Retry(const QByteArray& text)
{
    CodeImport out;
    if (text.size() > kMaxInput) {
        out.problems << u"The input is %1 bytes; a Retry(...) call is read from at most %2."_s.arg(text.size()).arg(kMaxInput);
        return out;
    }
    QString problem;
    const QList<Token> tokens = tokenize(QString::fromUtf8(text), &problem);
    if (!problem.isEmpty()) {
        out.problems << problem;
        return out;
    }
    Parser parser(tokens);
    qsizetype i = parser.findCall();
    if (i < 0) {
        out.problems << u"No Retry(...) call found (Retry(, urllib3.Retry( or urllib3.util.retry.Retry()."_s;
        return out;
    }

    // The arguments as written.
    QList<QPair<QString, Value>> args;
    QSet<QString> seen;
    int positional = 0;
    while (!parser.isOp(i, u')')) {
        QString name;
        if (parser.at(i).kind == Token::Name && parser.isOp(i + 1, u'=') && !parser.isOp(i + 2, u'=')) {
            name = parser.at(i).text;
            i += 2;
        } else if (parser.isOp(i, u'*')) {
            name = u"**"_s; // *args or **kwargs: nothing can be read from them
            while (parser.isOp(i, u'*'))
                ++i;
        } else {
            name = positional == 0 ? u"total"_s : u"argument %1"_s.arg(positional + 1);
            ++positional;
        }
        Value v;
        if (!parser.value(i, 0, &v, &problem)) {
            out.problems << problem;
            return out;
        }
        if (seen.contains(name)) {
            out.problems << u"Line %1: the argument %2 is given twice."_s.arg(parser.at(i).line).arg(name);
            return out;
        }
        seen.insert(name);
        args.append({ name, v });
        if (parser.isOp(i, u','))
            ++i;
        else if (!parser.isOp(i, u')')) {
            out.problems << u"Line %1: expected , or ) in the Retry(...) call."_s.arg(parser.at(i).line);
            return out;
        }
    }
    if (seen.contains(u"allowed_methods"_s) && seen.contains(u"method_whitelist"_s)) {
        out.problems << u"allowed_methods and method_whitelist together: urllib3 1.26 raises ValueError."_s;
        return out;
    }

    // urllib3 1.26's Retry with Retry's defaults: the preset models it with backoff_factor 0.5.
    const PolicyParseResult preset = PresetCatalog::load(u"urllib3"_s);
    if (!preset.policy) {
        out.problems << u"The urllib3 preset could not be loaded."_s;
        return out;
    }
    RetryPolicy p = *preset.policy;
    p.name = u"urllib3-retry"_s;
    p.description = u"Read from a urllib3 Retry(...) call."_s;
    p.source = u"retrylab policy import --from urllib3"_s;
    p.sourceTitle = u"urllib3 Retry(...)"_s;
    p.limits.countedAs = AttemptCounting::Retries;
    p.limits.maxAttempts = 11; // total=10
    double factor = 0;
    std::optional<Millis> backoffMax;
    std::optional<Millis> jitter;
    QStringList methods = kDefaultMethods;
    QList<int> forcelist;
    bool respectRetryAfter = true;
    QHash<QString, qint64> kindCounts; // connect, read, status, other: −1 = False
    bool redirectFalse = false;
    LossList lost;
    const auto lose = [&](const QString& path, const QString& what) { lost.add(path, what); };
    const auto unreadable = [&](const QString& path, const Value& v, const QString& wanted) {
        lose(path, v.kind == Value::Expression ? u"%1 is not a literal (%2): it is read only as %3"_s.arg(path, describe(v), wanted)
                                               : u"%1 is not %2"_s.arg(path, wanted));
    };
    std::optional<qint64> total = 10;
    bool totalNone = false;

    for (const auto& [name, v] : std::as_const(args)) {
        bool ok = true;
        if (name == u"total"_s) {
            const std::optional<qint64> n = countOf(v, &ok);
            if (!ok)
                unreadable(name, v, u"a count, None or False"_s);
            else if (!n)
                totalNone = true;
            total = n;
        } else if (name == u"connect"_s || name == u"read"_s || name == u"status"_s || name == u"other"_s) {
            const std::optional<qint64> n = countOf(v, &ok);
            if (!ok)
                unreadable(name, v, u"a count, None or False"_s);
            else if (n)
                kindCounts.insert(name, *n);
        } else if (name == u"backoff_factor"_s) {
            bool whole = true;
            if (!v.isNumber() || v.asDouble() < 0 || v.asDouble() > 1e6)
                unreadable(name, v, u"a number of seconds"_s);
            else {
                factor = v.asDouble();
                (void)secondsOf(v, &whole);
                if (!whole)
                    lose(name, u"backoff_factor %1 s is finer than a millisecond: the policy rounds it"_s.arg(factor));
            }
        } else if (name == u"backoff_max"_s || name == u"backoff_jitter"_s) {
            bool whole = true;
            const std::optional<Millis> ms = secondsOf(v, &whole);
            if (!ms)
                unreadable(name, v, u"a number of seconds"_s);
            else if (!whole)
                lose(name, u"%1 is finer than a millisecond: the policy rounds it"_s.arg(name));
            (name == u"backoff_max"_s ? backoffMax : jitter) = ms;
        } else if (name == u"status_forcelist"_s) {
            if (const auto codes = statusesOf(v))
                forcelist = *codes;
            else
                unreadable(name, v, u"a list of status codes"_s);
        } else if (name == u"allowed_methods"_s || name == u"method_whitelist"_s) {
            if (const auto m = methodsOf(v))
                methods = *m;
            else
                unreadable(name, v, u"a list of method names"_s);
        } else if (name == u"respect_retry_after_header"_s) {
            if (v.kind == Value::Bool)
                respectRetryAfter = v.boolean;
            else
                unreadable(name, v, u"True or False"_s);
        } else if (name == u"raise_on_status"_s) {
            // Only whether the caller gets MaxRetryError or the last answer when the retries run out: the
            // decisions are the same.
            if (v.kind != Value::Bool)
                unreadable(name, v, u"True or False"_s);
        } else if (name == u"redirect"_s) {
            if (v.kind == Value::Bool && !v.boolean)
                redirectFalse = true; // the 3xx is returned as it came: the policy's success
            else
                lose(name, u"urllib3 follows redirects (counting them against redirect); the policy never follows one"_s);
        } else if (name == u"raise_on_redirect"_s) {
            if (!redirectFalse && !(v.kind == Value::Bool && v.boolean))
                lose(name, u"raise_on_redirect changes what a redirect the retries ran out on ends with; the policy never follows one"_s);
        } else if (name == u"remove_headers_on_redirect"_s) {
            lose(name, u"headers removed when following a redirect: the policy never follows one"_s);
        } else if (name == u"history"_s) {
            lose(name, u"a history of earlier attempts: the policy starts every request afresh"_s);
        } else if (name == u"**"_s) {
            lose(name, u"arguments passed with * or ** cannot be read"_s);
        } else {
            lose(name, u"%1 is not an argument urllib3 1.26's or 2's Retry takes (or one the policy can hold)"_s.arg(name));
        }
    }

    // total: the attempts.
    if (totalNone) {
        qint64 most = -1;
        for (auto it = kindCounts.cbegin(); it != kindCounts.cend(); ++it)
            most = std::max(most, it.value());
        lose(u"total"_s, kindCounts.isEmpty() ? u"total=None with no other count: urllib3 retries without end; the policy needs a limit"_s
                                               : u"total=None: urllib3 counts each kind of failure separately; the policy counts all retries together"_s);
        total = std::max<qint64>(0, most);
    }
    if (total && *total < 0)
        total = 0; // total=False: no retries, errors raised at once
    if (total && *total > 1000) {
        lose(u"total"_s, u"total=%1 is more retries than a policy holds (1000)"_s.arg(*total));
        total = 1000;
    }
    p.limits.maxAttempts = int(total.value_or(0)) + 1;
    // A kind's count: 0 or False → that kind is never retried; a count the total reaches first changes
    // nothing; one in between cannot be held.
    QSet<QString> never;
    for (auto it = kindCounts.cbegin(); it != kindCounts.cend(); ++it) {
        if (it.value() <= 0)
            never.insert(it.key());
        else if (it.value() < p.maxRetries() && !totalNone)
            lose(it.key(), u"%1=%2 limits one kind of failure below total=%3: the policy counts all retries together"_s
                               .arg(it.key()).arg(it.value()).arg(p.maxRetries()));
    }

    // The backoff: factor · 2^(n−1) from the second retry on, the first waits 0, capped at backoff_max.
    if (factor > 0) {
        p.backoff.kind = BackoffKind::Exponential;
        p.backoff.base = Millis(qint64(std::round(factor * 1000)));
        p.backoff.multiplier = 2.0;
        p.backoff.origin = ExponentOrigin::FirstRetryIsZero;
        p.backoff.exponentOffset = 0;
    } else {
        p.backoff.kind = BackoffKind::None;
    }
    if (backoffMax)
        p.backoff.cap = *backoffMax;
    if (jitter && jitter->count() > 0) {
        p.jitter.kind = JitterKind::Additive;
        p.jitter.additive = *jitter;
        p.jitter.capOrder = CapOrder::AfterJitter;
    }

    // The rules, as the preset orders them, gated by the arguments.
    QList<RetryRule> rules;
    for (RetryRule r : std::as_const(p.rules)) {
        if (r.name == u"connect-error"_s && never.contains(u"connect"_s))
            continue;
        if (r.name == u"other-error"_s && never.contains(u"other"_s))
            continue;
        if (r.name == u"read-error"_s) {
            if (never.contains(u"read"_s))
                continue;
            r.when.methods = methods;
        }
        if (r.name == u"read-error-method-not-allowed"_s && methods.isEmpty())
            continue;
        if (r.name == u"retry-after-status"_s) {
            if (!forcelist.isEmpty() && !never.contains(u"status"_s)) {
                RetryRule force;
                force.name = u"status-forcelist"_s;
                force.note = u"status_forcelist: retried for the allowed methods, Retry-After or not."_s;
                force.when.outcome = OutcomeKind::Status;
                force.when.statuses = ranges(forcelist);
                force.when.methods = methods;
                rules << force;
            }
            if (!respectRetryAfter || never.contains(u"status"_s))
                continue;
            r.when.methods = methods;
        }
        rules << r;
    }
    p.rules = rules;
    if (!respectRetryAfter)
        p.hints.clear();
    out.policy = p;
    out.lost = lost.items();
    return out;
}
