// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A fleet's locustfile handed to workers on other machines (issue 32 §1: "fetches the locustfile from the
// master"). The master's side serves a copy of it — alone in a folder of its own — with Python's own
// `http.server` (python3 is there: Locust runs on it) on the master's address; the worker's side fetches it
// and refuses it unless its SHA-256 is the one the master printed, since the file is Python the worker runs.

#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <optional>

class LocustfileShare
{
public:
    static constexpr char kFileName[] = "retrylab_fleet.py";

    LocustfileShare();
    ~LocustfileShare();
    LocustfileShare(const LocustfileShare&) = delete;
    LocustfileShare& operator=(const LocustfileShare&) = delete;

    // Serves a copy of LOCUSTFILE on HOST (an address) at a free port; false with errorString() when it
    // cannot (no python3, the port, the copy).
    bool start(const QString& locustfile, const QString& host);
    void stop();
    quint16 port() const { return m_port; }
    QString sha256() const { return m_sha256; } // lowercase hex of what is served
    QString errorString() const { return m_error; }

    // True when TEXT is 64 hexadecimal digits.
    static bool isSha256(const QString& text);
    // The file at http://HOST:PORT/retrylab_fleet.py when its SHA-256 is SHA256 (hex, any case); null with
    // *error otherwise (unreachable, not 200, over 8 MiB, a different digest). Waits at most TIMEOUT_MS.
    static std::optional<QByteArray> fetch(
        const QString& host, quint16 port, const QString& sha256, int timeoutMs, QString* error);

private:
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_server;
    quint16 m_port = 0;
    QString m_sha256;
    QString m_error;
};
