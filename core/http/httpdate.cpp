// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/httpdate.h"

#include <QList>
#include <QTimeZone>

#include <array>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

constexpr std::array<const char*, 7> kShortDays { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
constexpr std::array<const char*, 7> kLongDays { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
                                                 "Saturday", "Sunday" };
constexpr std::array<const char*, 12> kMonths { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

bool isSpace(char c) { return c == ' ' || c == '\t'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool allDigits(const QByteArray& s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!isDigit(c))
            return false;
    }
    return true;
}

bool allAlpha(const QByteArray& s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return false;
    }
    return true;
}

// Index in NAMES matching S case-insensitively, or -1; EXACT tells whether the case matched too.
template <std::size_t N>
int findName(const std::array<const char*, N>& names, const QByteArray& s, bool* exact)
{
    for (std::size_t i = 0; i < N; ++i) {
        if (s.compare(QByteArrayView(names[i]), Qt::CaseInsensitive) == 0) {
            *exact = (s == QByteArrayView(names[i]));
            return int(i);
        }
    }
    return -1;
}

QByteArray pad2(int v) { return QByteArray::number(v).rightJustified(2, '0'); }
// date4 / year (RFC 9110 §5.6.7) is always four digits: year 997 is written "0997".
QByteArray pad4(int v) { return QByteArray::number(v).rightJustified(4, '0'); }

struct Fields
{
    int weekday = -1; // 0 = Monday; -1 = not given
    int day = 0, month = 0, year = 0, hour = 0, minute = 0, second = 0;
    int offsetSeconds = 0; // a lenient numeric zone
};

class Reader
{
public:
    HttpDate result;
    Fields f;

    void warn(const QString& text) { result.warnings << text; }
    bool fail(const QString& text)
    {
        result.error = text;
        return false;
    }

    bool readDay(const QByteArray& s, bool twoDigitsRequired)
    {
        if (!allDigits(s) || s.size() > 2)
            return fail(u"day \"%1\" is not a number of one or two digits"_s.arg(QLatin1String(s)));
        if (s.size() == 1 && twoDigitsRequired)
            warn(u"one-digit day \"%1\" (the grammar wants two digits)"_s.arg(QLatin1String(s)));
        f.day = s.toInt();
        return true;
    }

    bool readMonth(const QByteArray& s)
    {
        bool exact = false;
        const int m = findName(kMonths, s, &exact);
        if (m < 0)
            return fail(u"unknown month \"%1\""_s.arg(QLatin1String(s)));
        if (!exact)
            warn(u"month \"%1\" is not capitalised as \"%2\""_s.arg(QLatin1String(s), QLatin1String(kMonths[m])));
        f.month = m + 1;
        return true;
    }

    bool readTime(const QByteArray& s)
    {
        const QList<QByteArray> parts = s.split(':');
        if (parts.size() != 3)
            return fail(u"time \"%1\" is not HH:MM:SS"_s.arg(QLatin1String(s)));
        bool short_ = false;
        for (const QByteArray& p : parts) {
            if (!allDigits(p) || p.size() > 2)
                return fail(u"time \"%1\" is not HH:MM:SS"_s.arg(QLatin1String(s)));
            short_ = short_ || p.size() == 1;
        }
        if (short_)
            warn(u"time \"%1\" has one-digit parts"_s.arg(QLatin1String(s)));
        f.hour = parts[0].toInt();
        f.minute = parts[1].toInt();
        f.second = parts[2].toInt();
        if (f.hour > 23 || f.minute > 59 || f.second > 60)
            return fail(u"time \"%1\" is out of range (00:00:00–23:59:60)"_s.arg(QLatin1String(s)));
        return true;
    }

    bool readZone(const QByteArray& s)
    {
        if (s == "GMT")
            return true;
        if (s.compare("GMT", Qt::CaseInsensitive) == 0) {
            warn(u"zone \"%1\" is not capitalised as \"GMT\""_s.arg(QLatin1String(s)));
            return true;
        }
        for (const char* utc : { "UTC", "UT", "Z" }) {
            if (s.compare(QByteArrayView(utc), Qt::CaseInsensitive) == 0) {
                warn(u"zone \"%1\" instead of \"GMT\""_s.arg(QLatin1String(s)));
                return true;
            }
        }
        if (s.size() == 5 && (s[0] == '+' || s[0] == '-') && allDigits(s.mid(1))) {
            const int hh = s.mid(1, 2).toInt();
            const int mm = s.mid(3, 2).toInt();
            if (hh > 23 || mm > 59)
                return fail(u"zone offset \"%1\" is out of range"_s.arg(QLatin1String(s)));
            f.offsetSeconds = (s[0] == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
            warn(u"numeric zone \"%1\" instead of \"GMT\""_s.arg(QLatin1String(s)));
            return true;
        }
        return fail(u"zone \"%1\" is not GMT"_s.arg(QLatin1String(s)));
    }

    // RFC 9110 §5.6.7: a two-digit year more than 50 years in the future means the most recent past
    // year with the same last two digits. Compared field by field so 29 Feb needs no valid QDate yet.
    void resolveTwoDigitYear(int yy, const QDateTime& now)
    {
        const QDateTime limit = now.toUTC().addYears(50);
        const QDate ld = limit.date();
        const QTime lt = limit.time();
        const std::array<int, 6> bound { ld.year(), ld.month(), ld.day(), lt.hour(), lt.minute(), lt.second() };
        int year = (now.toUTC().date().year() / 100) * 100 + yy + 100;
        for (;;) {
            const std::array<int, 6> candidate { year, f.month, f.day, f.hour, f.minute, f.second };
            if (candidate <= bound)
                break;
            year -= 100;
        }
        f.year = year;
    }
};

} // namespace

HttpDate parseHttpDate(QByteArrayView text, const QDateTime& now)
{
    Reader r;
    qsizetype begin = 0, end = text.size();
    while (begin < end && isSpace(text[begin]))
        ++begin;
    while (end > begin && isSpace(text[end - 1]))
        --end;
    const QByteArray input = text.sliced(begin, end - begin).toByteArray();
    if (input.isEmpty()) {
        r.fail(u"empty value"_s);
        return r.result;
    }
    for (char c : input) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 && c != '\t') {
            r.fail(u"control character in the value"_s);
            return r.result;
        }
        if (u >= 0x7f) {
            r.fail(u"non-ASCII byte in the value"_s);
            return r.result;
        }
    }

    QList<QByteArray> words;
    for (const QByteArray& w : input.split(' ')) {
        for (const QByteArray& part : w.split('\t')) {
            if (!part.isEmpty())
                words << part;
        }
    }

    // The weekday, if the first word is one.
    bool comma = false, longName = false, exactCase = true;
    QByteArray first = words.first();
    if (first.endsWith(',')) {
        comma = true;
        first.chop(1);
    }
    bool exact = false;
    int weekday = findName(kShortDays, first, &exact);
    if (weekday < 0) {
        weekday = findName(kLongDays, first, &exact);
        longName = weekday >= 0;
    }
    exactCase = exact;
    bool dummy = false;
    if (weekday >= 0) {
        words.removeFirst();
    } else if (allAlpha(first) && findName(kMonths, first, &dummy) < 0) {
        r.fail(u"unknown weekday \"%1\""_s.arg(QLatin1String(first)));
        return r.result;
    } else if (comma) {
        r.fail(u"\"%1,\" is not a weekday"_s.arg(QLatin1String(first)));
        return r.result;
    }
    r.f.weekday = weekday;

    HttpDateForm form = HttpDateForm::Invalid;
    QByteArray dayToken;
    int twoDigitYear = -1;
    if (words.size() == 5 && allDigits(words[0])) {
        form = HttpDateForm::ImfFixdate;
        if (!r.readDay(words[0], true) || !r.readMonth(words[1]) || !r.readTime(words[3]) || !r.readZone(words[4]))
            return r.result;
        if (allDigits(words[2]) && words[2].size() == 4) {
            r.f.year = words[2].toInt();
        } else if (allDigits(words[2]) && words[2].size() == 2) {
            r.warn(u"two-digit year \"%1\" in an IMF-fixdate"_s.arg(QLatin1String(words[2])));
            twoDigitYear = words[2].toInt();
        } else {
            r.fail(u"year \"%1\" is not four digits"_s.arg(QLatin1String(words[2])));
            return r.result;
        }
    } else if (words.size() == 3 && words[0].contains('-')) {
        form = HttpDateForm::Rfc850;
        const QList<QByteArray> parts = words[0].split('-');
        if (parts.size() != 3) {
            r.fail(u"date \"%1\" is not DD-Mon-YY"_s.arg(QLatin1String(words[0])));
            return r.result;
        }
        if (!r.readDay(parts[0], true) || !r.readMonth(parts[1]) || !r.readTime(words[1]) || !r.readZone(words[2]))
            return r.result;
        if (allDigits(parts[2]) && parts[2].size() == 2) {
            twoDigitYear = parts[2].toInt();
        } else if (allDigits(parts[2]) && parts[2].size() == 4) {
            r.warn(u"four-digit year \"%1\" in an RFC 850 date"_s.arg(QLatin1String(parts[2])));
            r.f.year = parts[2].toInt();
        } else {
            r.fail(u"year \"%1\" is not two digits"_s.arg(QLatin1String(parts[2])));
            return r.result;
        }
    } else if (words.size() == 4 && allAlpha(words[0])) {
        form = HttpDateForm::Asctime;
        dayToken = words[1];
        if (!r.readMonth(words[0]) || !r.readDay(words[1], false) || !r.readTime(words[2]))
            return r.result;
        if (!allDigits(words[3]) || words[3].size() != 4) {
            r.fail(u"year \"%1\" is not four digits"_s.arg(QLatin1String(words[3])));
            return r.result;
        }
        r.f.year = words[3].toInt();
    } else {
        r.fail(u"not one of the three HTTP-date forms"_s);
        return r.result;
    }
    if (twoDigitYear >= 0) {
        if (!now.isValid()) {
            r.fail(u"no reference time to read the two-digit year against"_s);
            return r.result;
        }
        r.resolveTwoDigitYear(twoDigitYear, now);
    }

    const QDate date(r.f.year, r.f.month, r.f.day);
    if (!date.isValid()) {
        r.fail(u"%1 %2 %3 is not a calendar date"_s.arg(r.f.day).arg(QLatin1String(kMonths[r.f.month - 1])).arg(r.f.year));
        return r.result;
    }

    // Weekday: present, of the form's kind, with the comma the form wants, matching the date.
    const bool wantLong = form == HttpDateForm::Rfc850;
    const bool wantComma = form != HttpDateForm::Asctime;
    if (weekday < 0) {
        r.warn(u"no weekday name"_s);
    } else {
        if (longName != wantLong)
            r.warn(wantLong ? u"abbreviated weekday in an RFC 850 date"_s : u"full weekday name where the form wants three letters"_s);
        if (comma != wantComma)
            r.warn(wantComma ? u"no comma after the weekday"_s : u"comma after the weekday in an asctime date"_s);
        if (!exactCase)
            r.warn(u"weekday \"%1\" is not capitalised as the grammar says"_s.arg(QLatin1String(first)));
        if (date.dayOfWeek() != weekday + 1)
            r.warn(u"weekday %1 does not match %2, a %3"_s.arg(QLatin1String(kShortDays[weekday]),
                                                             date.toString(Qt::ISODate),
                                                             QLatin1String(kLongDays[date.dayOfWeek() - 1])));
    }

    // Spacing: with every token already exact, the only difference left from the grammar is whitespace.
    if (r.result.warnings.isEmpty()) {
        QByteArray canonical;
        const QByteArray time = pad2(r.f.hour) + ':' + pad2(r.f.minute) + ':' + pad2(r.f.second);
        const QByteArray month(kMonths[r.f.month - 1]);
        if (form == HttpDateForm::ImfFixdate)
            canonical = QByteArray(kShortDays[weekday]) + ", " + pad2(r.f.day) + ' ' + month + ' '
                + pad4(r.f.year) + ' ' + time + " GMT";
        else if (form == HttpDateForm::Rfc850)
            canonical = QByteArray(kLongDays[weekday]) + ", " + pad2(r.f.day) + '-' + month + '-'
                + pad2(twoDigitYear) + ' ' + time + " GMT";
        else {
            const QByteArray day = dayToken.size() == 1 ? QByteArray(" ") + dayToken : dayToken;
            canonical = QByteArray(kShortDays[weekday]) + ' ' + month + ' ' + day + ' ' + time + ' '
                + pad4(r.f.year);
        }
        if (input != canonical)
            r.warn(u"whitespace differs from the grammar (expected \"%1\")"_s.arg(QLatin1String(canonical)));
    }

    // 23:59:60 is read as the next second (QTime has no leap seconds).
    const int leap = r.f.second == 60 ? 1 : 0;
    QDateTime value(date, QTime(r.f.hour, r.f.minute, r.f.second - leap), Qt::UTC);
    value = value.addSecs(leap - r.f.offsetSeconds);

    r.result.dateTime = value;
    r.result.form = form;
    r.result.conformant = r.result.warnings.isEmpty();
    return r.result;
}

QByteArray formatHttpDate(const QDateTime& time)
{
    if (!time.isValid())
        return {};
    const QDateTime utc = time.toUTC();
    const QDate d = utc.date();
    const QTime t = utc.time();
    if (d.year() < 1 || d.year() > 9999)
        return {};
    return QByteArray(kShortDays[d.dayOfWeek() - 1]) + ", " + pad2(d.day()) + ' ' + QByteArray(kMonths[d.month() - 1])
        + ' ' + pad4(d.year()) + ' ' + pad2(t.hour()) + ':' + pad2(t.minute())
        + ':' + pad2(t.second()) + " GMT";
}

QString httpDateFormName(HttpDateForm form)
{
    switch (form) {
    case HttpDateForm::ImfFixdate:
        return u"imf-fixdate"_s;
    case HttpDateForm::Rfc850:
        return u"rfc850"_s;
    case HttpDateForm::Asctime:
        return u"asctime"_s;
    case HttpDateForm::Invalid:
        break;
    }
    return u"invalid"_s;
}
