// SPDX-License-Identifier: GPL-3.0-or-later
#include "codeexport/codeexportpane.h"

#include "codeexport/codehighlighter.h"
#include "codegen/codewriter.h"
#include "shell/elidedlabel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProcess>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

const QColor kLostColour(0xc6, 0x28, 0x28);
const QColor kExactColour(0x2e, 0x7d, 0x32);

// A node_modules folder holding every one of PACKAGES: $RETRYLAB_NODE_MODULES, else the nearest
// node_modules from the working folder up. Empty when none does.
QString nodeModulesWith(const QStringList& packages)
{
    QStringList candidates;
    if (const QString env = qEnvironmentVariable("RETRYLAB_NODE_MODULES"); !env.isEmpty())
        candidates << env;
    for (QDir dir = QDir::current();; ) {
        candidates << dir.filePath(u"node_modules"_s);
        if (!dir.cdUp())
            break;
    }
    for (const QString& c : std::as_const(candidates)) {
        const bool all = std::all_of(packages.cbegin(), packages.cend(),
            [&](const QString& p) { return QFileInfo::exists(QDir(c).filePath(p + u"/package.json"_s)); });
        if (all && !packages.isEmpty())
            return QFileInfo(c).absoluteFilePath();
    }
    return {};
}

} // namespace

CodeExportPane::CodeExportPane(QWidget* parent)
    : QWidget(parent)
    , m_target(new QComboBox(this))
    , m_version(new QComboBox(this))
    , m_code(new QPlainTextEdit(this))
    , m_highlighter(new CodeHighlighter(m_code->document()))
    , m_verdict(new QLabel(this))
    , m_lost(new QListWidget(this))
    , m_copy(new QPushButton(tr("Copy"), this))
    , m_save(new QPushButton(tr("Save…"), this))
    , m_check(new QPushButton(tr("Check with a Real Client"), this))
    , m_checkNote(new ElidedLabel(this))
{
    setObjectName(u"CodeExportPane"_s);
    for (const CodeTarget& t : CodeTargets::all())
        m_target->addItem(t.title.compare(t.id, Qt::CaseInsensitive) == 0 ? t.id : u"%1 — %2"_s.arg(t.id, t.title), t.id);
    m_target->setToolTip(tr("The library or proxy the policy is written for"));
    // In a narrow dock the target's title gives way, never the version beside it.
    m_target->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_target->setMinimumContentsLength(12);
    m_version->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_version->setToolTip(tr("The target's version: options and defaults differ between versions"));
    m_code->setReadOnly(true);
    m_code->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_code->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_code->setObjectName(u"exportedCode"_s);
    m_verdict->setWordWrap(true);
    m_lost->setWordWrap(true);
    m_lost->setObjectName(u"lostBehaviours"_s);
    m_lost->setSelectionMode(QAbstractItemView::NoSelection);
    m_lost->setToolTip(tr("What the target cannot express of the policy, even through its own extension points; "
                          "the code's header lists the same"));
    m_copy->setToolTip(tr("Copy the code to the clipboard"));
    m_check->setToolTip(tr("Run the exported code on the standard suite in the Conform tab, judged against this policy"));

    auto* top = new QHBoxLayout;
    auto* targetLabel = new QLabel(tr("&Target"), this);
    targetLabel->setBuddy(m_target);
    top->addWidget(targetLabel);
    top->addWidget(m_target, 1);
    auto* versionLabel = new QLabel(tr("&Version"), this);
    versionLabel->setBuddy(m_version);
    top->addWidget(versionLabel);
    top->addWidget(m_version);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_copy);
    buttons->addWidget(m_save);
    buttons->addSpacing(12);
    buttons->addWidget(m_checkNote, 1);
    buttons->addWidget(m_check);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_verdict);
    sideLayout->addWidget(m_lost, 1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_code);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    layout->addLayout(buttons);

    connect(m_target, &QComboBox::currentIndexChanged, this, [this] {
        fillVersions();
        regenerate();
        m_code->verticalScrollBar()->setValue(0); // another target's code: from its top
    });
    connect(m_version, &QComboBox::currentIndexChanged, this, &CodeExportPane::regenerate);
    connect(m_copy, &QPushButton::clicked, this, &CodeExportPane::copy);
    connect(m_save, &QPushButton::clicked, this, &CodeExportPane::save);
    connect(m_check, &QPushButton::clicked, this, &CodeExportPane::check);
    fillVersions();
    regenerate();
}

CodeExportPane::~CodeExportPane() = default;

const CodeTarget* CodeExportPane::currentTarget() const
{
    return CodeTargets::find(m_target->currentData().toString());
}

bool CodeExportPane::selectTarget(const QString& id, const QString& version)
{
    const int index = m_target->findData(id);
    if (index < 0)
        return false;
    m_target->setCurrentIndex(index);
    if (!version.isEmpty()) {
        const int v = m_version->findText(version);
        if (v < 0)
            return false;
        m_version->setCurrentIndex(v);
    }
    return true;
}

void CodeExportPane::setPolicy(const std::optional<RetryPolicy>& policy)
{
    if (policy == m_policy && m_export)
        return;
    m_policy = policy;
    regenerate();
}

void CodeExportPane::fillVersions()
{
    const QSignalBlocker block(m_version);
    m_version->clear();
    if (const CodeTarget* t = currentTarget())
        m_version->addItems(t->versions);
}

void CodeExportPane::regenerate()
{
    m_export.reset();
    m_lost->clear();
    const CodeTarget* target = currentTarget();
    if (!target || !m_policy) {
        m_code->setPlainText(QString());
        m_verdict->setText(m_policy ? tr("No export target.") : tr("The policy has problems (see the Form tab): nothing to export."));
        m_verdict->setStyleSheet(QString());
    } else {
        QString error;
        m_export = exportPolicy(*target, *m_policy, m_version->currentText(), &error);
        m_highlighter->setLanguage(target->language);
        const int scroll = m_code->verticalScrollBar() ? m_code->verticalScrollBar()->value() : 0;
        m_code->setPlainText(m_export ? m_export->code : error);
        m_code->verticalScrollBar()->setValue(scroll);
        const QString who = u"%1 %2"_s.arg(target->title, m_version->currentText());
        if (m_export && m_export->exact()) {
            m_verdict->setText(tr("Exact: %1 does everything the policy says.").arg(who));
            m_verdict->setStyleSheet(u"color: %1; font-weight: 600;"_s.arg(kExactColour.name()));
        } else if (m_export) {
            const int n = int(m_export->lost.size());
            m_verdict->setText((n == 1 ? tr("1 behaviour of the policy that %1 cannot express:") : tr("%1 behaviours of the policy that %2 cannot express:").arg(n))
                                   .arg(who));
            m_verdict->setStyleSheet(u"color: %1; font-weight: 600;"_s.arg(kLostColour.name()));
            for (const LostBehaviour& l : m_export->lost) {
                auto* item = new QListWidgetItem(u"%1 — %2"_s.arg(l.path, l.what), m_lost);
                item->setForeground(kLostColour);
                item->setToolTip(l.what);
            }
        }
    }
    m_lost->setVisible(m_lost->count() > 0);
    m_copy->setEnabled(m_export.has_value());
    m_save->setEnabled(m_export.has_value());
    const QString unavailable = checkUnavailableReason();
    m_check->setEnabled(m_export.has_value() && unavailable.isEmpty());
    m_checkNote->setText(m_export ? unavailable : QString());
    m_check->setToolTip(unavailable.isEmpty()
            ? tr("Run the exported code on the standard suite in the Conform tab, judged against this policy")
            : unavailable);
}

void CodeExportPane::copy()
{
    if (!m_export)
        return;
    QApplication::clipboard()->setText(m_export->code);
    Q_EMIT statusMessage(tr("Copied the %1 code (%2 lines).").arg(m_target->currentData().toString()).arg(m_export->code.count(u'\n')));
}

void CodeExportPane::save()
{
    const CodeTarget* target = currentTarget();
    if (!m_export || !target || !m_policy)
        return;
    const QString suggested = snakeName(m_policy->name) + u'.' + CodeTargets::fileSuffix(target->language);
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Exported Code"), suggested);
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    const QByteArray bytes = m_export->code.toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        Q_EMIT statusMessage(tr("Could not save %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return;
    }
    Q_EMIT statusMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)));
}

QString CodeExportPane::checkUnavailableReason() const
{
    const CodeTarget* target = currentTarget();
    if (!target)
        return tr("No export target.");
    if (!target->proofClient)
        return tr("%1 does not run on this machine's kind (%2): review the code against its documentation.").arg(target->title, target->runtime);
    const ProofClient client = target->proofClient(u"unit"_s, m_version->currentText());
    const QString program = client.command.value(0);
    if (QFileInfo(program).isAbsolute() ? !QFileInfo(program).isExecutable() : QStandardPaths::findExecutable(program).isEmpty())
        return tr("%1 is not installed: the check needs %2.").arg(program, client.needs);
    if (target->language == u"javascript" && nodeModulesWith(client.packages).isEmpty())
        return tr("%1 not found in a node_modules folder here or above, nor in $RETRYLAB_NODE_MODULES: the check needs %2.")
            .arg(client.packages.join(u", "_s), client.needs);
    return {};
}

QString CodeExportPane::prepareCheck(QString* error)
{
    const CodeTarget* target = currentTarget();
    if (!m_export || !target || !target->proofClient) {
        *error = tr("Nothing to check.");
        return {};
    }
    if (const QString reason = checkUnavailableReason(); !reason.isEmpty()) {
        *error = reason;
        return {};
    }
    m_checkDir = std::make_unique<QTemporaryDir>(QDir::temp().filePath(u"retrylab-check-XXXXXX"_s));
    if (!m_checkDir->isValid()) {
        *error = tr("Could not make a folder for the check: %1").arg(m_checkDir->errorString());
        return {};
    }
    const QString unit = u"retrylab_policy."_s + CodeTargets::fileSuffix(target->language);
    QFile unitFile(m_checkDir->filePath(unit));
    const QByteArray bytes = m_export->code.toUtf8();
    if (!unitFile.open(QIODevice::WriteOnly) || unitFile.write(bytes) != bytes.size()) {
        *error = tr("Could not write the code into %1.").arg(m_checkDir->path());
        return {};
    }
    const QString command = writeProofClient(*target, m_checkDir->path(), unit, m_version->currentText(), error);
    if (!command.isEmpty() && target->language == u"javascript") { // ES modules resolve packages from the folder up: link them in
        const ProofClient client = target->proofClient(unit, m_version->currentText());
        QFile::link(nodeModulesWith(client.packages), m_checkDir->filePath(u"node_modules"_s));
    }
    return command;
}

void CodeExportPane::check()
{
    QString error;
    const QString command = prepareCheck(&error);
    if (command.isEmpty()) {
        Q_EMIT statusMessage(error);
        return;
    }
    Q_EMIT checkRequested(command, u"%1 %2"_s.arg(m_target->currentData().toString(), m_version->currentText()));
}
