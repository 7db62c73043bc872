// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/curlpastedialog.h"

#include "editors/curlpreset.h"
#include "live/chartpalette.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

CurlPasteDialog::CurlPasteDialog(const QString& text, QWidget* parent)
    : QDialog(parent)
    , m_text(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_notes(new QTextBrowser(this))
    , m_preset(new QCheckBox(tr("Also load the curl preset with the command's retry options and timeouts"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Paste curl Command"));
    auto* help = new QLabel(tr("A curl command line, as copied from a terminal, API docs or a browser's "
                               "\"Copy as cURL (bash)\". Every option is read as curl 7.88 reads it:"),
        this);
    help->setWordWrap(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setPlaceholderText(u"curl -X POST https://api.example.com/v1/charges -H 'Content-Type: application/json' "
                               "--data-raw '{\"amount\": 100}' --retry 3"_s);
    m_text->setTabChangesFocus(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setOpenLinks(false);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Fill In the Request"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &CurlPasteDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    m_timer.setSingleShot(true);
    m_timer.setInterval(150);
    connect(&m_timer, &QTimer::timeout, this, &CurlPasteDialog::reread);
    connect(m_text, &QPlainTextEdit::textChanged, &m_timer, qOverload<>(&QTimer::start));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(help);
    layout->addWidget(m_text, 2);
    layout->addWidget(m_status);
    layout->addWidget(m_notes, 3);
    layout->addWidget(m_preset);
    layout->addWidget(m_buttons);
    const int em = fontMetrics().horizontalAdvance(u'M');
    resize(64 * em, 30 * fontMetrics().height());
    setText(text);
}

QString CurlPasteDialog::text() const
{
    return m_text->toPlainText();
}

void CurlPasteDialog::setText(const QString& text)
{
    m_text->setPlainText(text);
    reread();
}

bool CurlPasteDialog::loadCurlPreset() const
{
    return m_presetOffered && m_preset->isChecked();
}

bool CurlPasteDialog::canAccept() const
{
    return m_request.ok();
}

void CurlPasteDialog::reread()
{
    m_timer.stop();
    const QString text = m_text->toPlainText();
    m_request = text.trimmed().isEmpty() ? CurlRequest() : CurlRequestParser::parse(text);
    const ChartPalette palette = ChartPalette::fromPalette(this->palette());
    QString notes;
    if (text.trimmed().isEmpty()) {
        m_status->setText(tr("Paste a command to see what it sends."));
        m_status->setStyleSheet(QString());
    } else if (!m_request.ok()) {
        m_status->setText(tr("Not read: %1").arg(m_request.error.isEmpty() ? tr("no URL in the command") : m_request.error));
        m_status->setStyleSheet(u"color: %1; font-weight: bold"_s.arg(palette.failure.name()));
    } else {
        m_status->setText(tr("Sends %1 %2 with %n header(s)", nullptr, int(m_request.headers.size()))
                              .arg(m_request.method, m_request.url)
            + (m_request.hasBody ? tr(" and a %n-byte body.", nullptr, int(m_request.body.size())) : tr(", no body.")));
        m_status->setStyleSheet(QString());
    }
    for (const CurlOptionNote& n : std::as_const(m_request.notes)) {
        const QString line = u"<b>%1</b> — %2"_s.arg(n.option.toHtmlEscaped(), n.text.toHtmlEscaped());
        notes += n.applied ? u"<li>%1</li>"_s.arg(line)
                           : u"<li style='color:%1'>%2</li>"_s.arg(palette.mutedText.name(), line);
    }
    m_notes->setHtml(notes.isEmpty() ? QString() : u"<ul style='margin-left:-20px'>"_s + notes + u"</ul>"_s);
    m_notes->setVisible(!notes.isEmpty());
    const bool knobs = m_request.ok() && CurlPreset::hasKnobs(m_request);
    if (knobs) {
        const CurlPreset::Result preset = CurlPreset::fromCommand(m_request);
        m_preset->setToolTip(preset.changes.join(u'\n'));
        if (!m_presetOffered)
            m_preset->setChecked(true); // offered for the first time: on
    }
    m_presetOffered = knobs;
    m_preset->setVisible(knobs);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(m_request.ok());
}

void CurlPasteDialog::accept()
{
    reread(); // what was typed in the last 150 ms counts
    if (canAccept())
        QDialog::accept();
}
