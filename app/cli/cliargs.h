// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

// A small, strict command-line reader: options are declared up front, anything undeclared is an error
// (a typo never runs a different command), values are taken from "--opt VALUE" or "--opt=VALUE".
class CliArgs
{
public:
    CliArgs& flag(const QString& name); // --name
    CliArgs& option(const QString& name, bool repeatable = false); // --name VALUE

    // Reads ARGS; false with error() set on an unknown option or a missing value.
    bool parse(const QStringList& args);

    bool isSet(const QString& name) const;
    std::optional<QString> value(const QString& name) const; // the last value given
    QStringList values(const QString& name) const; // every value, in order
    const QStringList& positional() const { return m_positional; }
    const QString& error() const { return m_error; }

    // Integer option NAME within [min, max]; sets error() and returns nullopt when malformed.
    std::optional<qint64> integer(const QString& name, qint64 min, qint64 max);
    // Seconds as a decimal ("0.5") → milliseconds, > 0; sets error() when malformed.
    std::optional<qint64> secondsAsMillis(const QString& name);

private:
    struct Declared
    {
        QString name;
        bool takesValue = false;
        bool repeatable = false;
    };
    const Declared* find(const QString& name) const;

    QList<Declared> m_declared;
    QList<QPair<QString, QString>> m_given;
    QStringList m_positional;
    QString m_error;
};
