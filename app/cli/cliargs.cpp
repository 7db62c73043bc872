// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/cliargs.h"

#include <QCoreApplication>

#include <cmath>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("cli", text);
}

} // namespace

CliArgs& CliArgs::flag(const QString& name)
{
    m_declared << Declared { name, false, false };
    return *this;
}

CliArgs& CliArgs::option(const QString& name, bool repeatable)
{
    m_declared << Declared { name, true, repeatable };
    return *this;
}

const CliArgs::Declared* CliArgs::find(const QString& name) const
{
    for (const Declared& d : m_declared) {
        if (d.name == name)
            return &d;
    }
    return nullptr;
}

bool CliArgs::parse(const QStringList& args)
{
    bool onlyPositional = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString& arg = args.at(i);
        if (onlyPositional || !arg.startsWith(QLatin1String("--")) || arg == QLatin1String("--")) {
            if (arg == QLatin1String("--") && !onlyPositional) {
                onlyPositional = true;
                continue;
            }
            m_positional << arg;
            continue;
        }
        QString name = arg.mid(2);
        std::optional<QString> inlineValue;
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name.truncate(eq);
        }
        const Declared* declared = find(name);
        if (!declared) {
            m_error = tr("unknown option --%1").arg(name);
            return false;
        }
        if (!declared->takesValue) {
            if (inlineValue) {
                m_error = tr("--%1 takes no value").arg(name);
                return false;
            }
            m_given << qMakePair(name, QString());
            continue;
        }
        QString value;
        if (inlineValue) {
            value = *inlineValue;
        } else {
            if (i + 1 >= args.size()) {
                m_error = tr("--%1 needs a value").arg(name);
                return false;
            }
            value = args.at(++i);
        }
        if (!declared->repeatable && isSet(name)) {
            m_error = tr("--%1 given more than once").arg(name);
            return false;
        }
        m_given << qMakePair(name, value);
    }
    return true;
}

bool CliArgs::isSet(const QString& name) const
{
    for (const auto& given : m_given) {
        if (given.first == name)
            return true;
    }
    return false;
}

std::optional<QString> CliArgs::value(const QString& name) const
{
    std::optional<QString> last;
    for (const auto& given : m_given) {
        if (given.first == name)
            last = given.second;
    }
    return last;
}

QStringList CliArgs::values(const QString& name) const
{
    QStringList all;
    for (const auto& given : m_given) {
        if (given.first == name)
            all << given.second;
    }
    return all;
}

std::optional<qint64> CliArgs::integer(const QString& name, qint64 min, qint64 max)
{
    const std::optional<QString> text = value(name);
    if (!text)
        return std::nullopt;
    bool ok = false;
    const qint64 number = text->toLongLong(&ok);
    if (!ok || number < min || number > max) {
        m_error = tr("--%1 must be a whole number from %2 to %3, not \"%4\"").arg(name).arg(min).arg(max).arg(*text);
        return std::nullopt;
    }
    return number;
}

std::optional<qint64> CliArgs::secondsAsMillis(const QString& name)
{
    const std::optional<QString> text = value(name);
    if (!text)
        return std::nullopt;
    bool ok = false;
    const double seconds = text->toDouble(&ok);
    if (!ok || !std::isfinite(seconds) || seconds <= 0 || seconds > 86400.0 * 365) {
        m_error = tr("--%1 must be a number of seconds above 0 (e.g. 0.5), not \"%2\"").arg(name, *text);
        return std::nullopt;
    }
    return qint64(std::llround(seconds * 1000.0));
}
