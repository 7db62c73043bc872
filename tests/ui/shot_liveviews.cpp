// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: runs the real engine against the in-process fault lab (flaky-api by default) through the
// same RunController the window uses, then renders each live view at 1400×800 with QWidget::grab() and
// saves timeline.png, delays.png, ratelimits.png, summary.png and attempts.png (the Attempts tab, its first
// call that was never sent selected when there is one, else its first attempt). Used to look at the views and to make
// packaging/screenshots/. With --open FILE, the views show that saved session instead (opened as the window
// opens one: read, then fed whole), e.g. a `retrylab run --session` recording of a circuit breaker.
//   shot_liveviews [--out DIR] [--preset NAME] [--scenario NAME] [--repeat N] [--concurrency C] [--dark]
//                  [--size WxH] [--open FILE] [--range T0:T1] [--select RUN:ATTEMPT]
// --range shows that time span of the timeline (seconds), --select selects that attempt in the timeline and
// the Attempts tab (e.g. a hedged request's copy).
#include "delaychartview.h"
#include "livesession.h"
#include "ratelimitchartview.h"
#include "run/attemptspage.h"
#include "run/runcontroller.h"
#include "summaryview.h"
#include "timelineview.h"

#include "sessions/sessionfeeder.h"

#include "policy/presetcatalog.h"
#include "session/format/sessionfile.h"

#include "testtime.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe0));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    return p;
}

QSize g_size(1400, 800);

bool save(QWidget* view, const QString& path)
{
    view->resize(g_size);
    const QPixmap shot = view->grab();
    return shot.save(path);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
    QCommandLineParser cli;
    cli.addOption({ u"out"_s, u"directory for the PNGs"_s, u"dir"_s, u"."_s });
    cli.addOption({ u"preset"_s, u"retry policy preset"_s, u"name"_s, u"slen"_s });
    cli.addOption({ u"scenario"_s, u"fault-lab scenario"_s, u"name"_s, u"flaky-api"_s });
    cli.addOption({ u"repeat"_s, u"runs"_s, u"n"_s, u"60"_s });
    cli.addOption({ u"concurrency"_s, u"runs at once"_s, u"n"_s, u"8"_s });
    cli.addOption({ u"dark"_s, u"use a dark palette"_s });
    cli.addOption({ u"size"_s, u"view size"_s, u"WxH"_s, u"1400x800"_s });
    cli.addOption({ u"open"_s, u"show this saved session instead of running"_s, u"file"_s });
    cli.addOption({ u"range"_s, u"the timeline's time range in seconds (else all of it)"_s, u"t0:t1"_s });
    cli.addOption({ u"select"_s, u"the attempt selected in the timeline and the Attempts tab"_s, u"run:attempt"_s });
    cli.process(app);
    const QStringList size = cli.value(u"size"_s).split(u'x');
    if (size.size() == 2 && size.at(0).toInt() > 0 && size.at(1).toInt() > 0)
        g_size = QSize(size.at(0).toInt(), size.at(1).toInt());
    if (cli.isSet(u"dark"_s))
        QApplication::setPalette(darkPalette());
    QTextStream err(stderr);

    RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
    if (!controller.startLab(cli.value(u"scenario"_s))) {
        err << "lab: " << controller.lastError() << '\n';
        return 1;
    }
    const PolicyParseResult policy = PresetCatalog::resolve(cli.value(u"preset"_s));
    if (!policy.ok()) {
        err << "preset " << cli.value(u"preset"_s) << " does not load\n";
        return 1;
    }
    RunPlan plan;
    plan.request.method = u"POST"_s;
    plan.request.body = R"({"amount": 1250, "currency": "EUR"})";
    plan.request.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    plan.labPath = u"/api/orders"_s;
    plan.policy = *policy.policy;
    plan.repeat = cli.value(u"repeat"_s).toInt();
    plan.concurrency = cli.value(u"concurrency"_s).toInt();

    LiveSession* session = controller.session();
    TimelineView timeline(session);
    DelayChartView delays(session);
    RateLimitChartView limits(session);
    SummaryView summary(session);
    AttemptsPage attempts(session);
    for (QWidget* w : std::initializer_list<QWidget*> { &timeline, &delays, &limits, &summary, &attempts }) {
        w->resize(g_size);
        w->show();
    }
    const QDir out(cli.value(u"out"_s));
    QDir().mkpath(out.path());
    // An empty timeline first: what a user sees before pressing Run.
    save(&timeline, out.filePath(u"timeline-empty.png"_s));

    const auto saveAll = [&] {
        session->flush();
        summary.refreshNow();
        timeline.resetZoom();
        if (const QStringList range = cli.value(u"range"_s).split(u':'); range.size() == 2 && range.at(1).toDouble() > range.at(0).toDouble())
            timeline.setTimeRange(range.at(0).toDouble(), range.at(1).toDouble());
        const QStringList select = cli.value(u"select"_s).split(u':');
        const bool selectGiven = select.size() == 2 && select.at(0).toInt() > 0 && select.at(1).toInt() > 0;
        if (selectGiven)
            timeline.selectAttempt(select.at(0).toInt(), select.at(1).toInt());
        QTimer::singleShot(300, &app, [&, selectGiven, select] {
            save(&timeline, out.filePath(u"timeline.png"_s));
            save(&delays, out.filePath(u"delays.png"_s));
            delays.tabs()->setCurrentIndex(1);
            QTimer::singleShot(100, &app, [&, selectGiven, select] {
                save(&delays, out.filePath(u"delays-histogram.png"_s));
                save(&limits, out.filePath(u"ratelimits.png"_s));
                save(&summary, out.filePath(u"summary.png"_s));
                qsizetype shown = 0;
                for (qsizetype i = 0; i < session->finishedAttempts(); ++i) {
                    if (session->attempt(i).refused()) {
                        shown = i;
                        break;
                    }
                }
                if (selectGiven)
                    attempts.selectAttempt(select.at(0).toInt(), select.at(1).toInt());
                else if (session->finishedAttempts() > 0)
                    attempts.selectAttempt(session->attempt(shown).runId(), session->attempt(shown).index());
                save(&attempts, out.filePath(u"attempts.png"_s));
                QTextStream(stdout) << "runs " << session->runs().size() << ", attempts " << session->finishedAttempts()
                                    << ", waits " << session->waits().size() << ", lab events "
                                    << session->labEventCount() << ", segments " << timeline.segmentCount()
                                    << ", rate-limit samples " << limits.sampleCount() << '\n';
                app.quit();
            });
        });
    };
    if (cli.isSet(u"open"_s)) {
        QString error;
        const std::shared_ptr<const Session> opened = SessionFile::open(cli.value(u"open"_s), {}, &error);
        if (!opened) {
            err << "open: " << error << '\n';
            return 1;
        }
        auto* feeder = new SessionFeeder(opened, session, false, &app);
        feeder->showAll();
        saveAll();
        return app.exec();
    }
    QObject::connect(&controller, &RunController::runningChanged, &app, [&](bool running) {
        if (!running)
            saveAll();
    });
    if (!controller.run(plan)) {
        err << "run: " << controller.lastError() << '\n';
        return 1;
    }
    QTimer::singleShot(120000, &app, [&] {
        err << "timed out\n";
        app.exit(2);
    });
    return app.exec();
}
