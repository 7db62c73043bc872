// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `retrylab --screenshot DIR`: once the start-up batch has ended, saves the window and its views into DIR
// (main.png, main-attempts.png, lab-panel.png, policy-editor.png, policy-decisions.png, policy-form.png and
// compare.png — the batch replayed offline under AWS standard retries — and conformance.png, the session shown
// judged against curl-7.88), then closes the window. Used for the
// README's pictures and by packaging/check-fresh-root.sh --full, which looks at main.png. A tool of its own,
// driving the window through what it shows to anyone.

#include <QDir>
#include <QObject>

class MainWindow;

class WindowShots final : public QObject
{
    Q_OBJECT
public:
    WindowShots(MainWindow* window, const QString& directory);

private:
    void saveViews();
    void saveCompare();
    void saveConformance();
    void save(QWidget* widget, const QString& name) const;

    MainWindow* m_window;
    QDir m_dir;
    bool m_started = false;
};
