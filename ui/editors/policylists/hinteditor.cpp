// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/hinteditor.h"

#include "editors/policyformbuilder.h"
#include "editors/policylists/hintlistmodel.h"
#include "editors/policylists/statuslistedit.h"

#include "policy/policyjson.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QVBoxLayout>

#include <climits>

using namespace Qt::StringLiterals;

HintEditor::HintEditor(HintListModel* model, QWidget* parent)
    : PolicyItemEditor(parent)
    , m_model(model)
{
    build();
    loadRow(-1);
}

template<typename Acc>
PolicyField& HintEditor::addRow(
    PolicyFormBuilder& b, const QString& path, const QString& label, QWidget* editor, Acc acc, const QString& help)
{
    m_same.insert(path, [acc](const DelayHint& x, const DelayHint& y) { return acc(x) == acc(y); });
    return b.row(path, label, editor, help);
}

template<typename Acc>
void HintEditor::addFlag(PolicyFormBuilder& b, const QString& path, const QString& label, const QString& text, Acc acc)
{
    auto* box = new QCheckBox(text, this);
    m_flags.insert(path, box);
    addRow(b, path, label, box, acc);
    m_loaders.insert(path, [this, box, acc] { box->setChecked(acc(std::as_const(m_item))); });
    connect(box, &QCheckBox::toggled, this, [this, acc](bool on) {
        if (m_loading)
            return;
        acc(m_item) = on;
        commit();
    });
}

void HintEditor::build()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    PolicyFormBuilder b(this, layout, &m_fields);
    m_group = b.section(tr("Selected hint"));
    // In a narrow dock a field that does not fit beside its label goes under it.
    static_cast<QFormLayout*>(m_group->layout())->setRowWrapPolicy(QFormLayout::WrapLongRows);

    m_header = new QLineEdit(this);
    m_header->setPlaceholderText(tr("response header, e.g. Retry-After"));
    addRow(b, u"header"_s, tr("Header"), m_header, [](auto& h) -> auto& { return h.header; });
    connect(m_header, &QLineEdit::textEdited, this, [this](const QString& text) {
        m_item.header = text.trimmed();
        commit();
    });

    m_format = new QComboBox(this);
    m_format->addItems(PolicyNames::hintFormats());
    addRow(b, u"format"_s, tr("Read as"), m_format, [](auto& h) -> auto& { return h.format; },
        tr("retry-after: seconds or an HTTP date; milliseconds; seconds: whole seconds only"));
    connect(m_format, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_item.format = HintFormat(index);
        commit();
    });

    m_statuses = new StatusListEdit(this);
    m_statuses->setPlaceholderText(tr("any retried response — or e.g. 429, 503"));
    addRow(b, u"statuses"_s, tr("On statuses"), m_statuses, [](auto& h) -> auto& { return h.statuses; },
        tr("The hint is honoured only on these"));
    connect(m_statuses, &QLineEdit::textEdited, this, &HintEditor::onStatusesEdited);

    m_combine = new QComboBox(this);
    m_combine->addItems(PolicyNames::hintCombines());
    addRow(b, u"combine"_s, tr("Combine"), m_combine, [](auto& h) -> auto& { return h.combine; },
        tr("replace: wait what it asks; at-least-backoff: the longer of both; clamp-around-backoff: between the "
           "backoff and the backoff plus the window"));
    connect(m_combine, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_item.combine = HintCombine(index);
        commit();
    });

    m_window = new QSpinBox(this);
    m_window->setRange(INT_MIN, INT_MAX);
    m_window->setSuffix(u" ms"_s);
    m_window->setGroupSeparatorShown(true);
    addRow(b, u"window_ms"_s, tr("Window"), m_window, [](auto& h) -> auto& { return h.window; },
        tr("clamp-around-backoff only: how far past the backoff the server may push the wait"));
    connect(m_window, &QSpinBox::valueChanged, this, [this](int value) {
        if (m_loading)
            return;
        m_item.window = Millis(value);
        commit();
    });

    m_max = new QSpinBox(this);
    m_max->setRange(-1, INT_MAX);
    m_max->setSuffix(u" ms"_s);
    m_max->setGroupSeparatorShown(true);
    m_max->setSpecialValueText(tr("none"));
    addRow(b, u"max_ms"_s, tr("Longest"), m_max, [](auto& h) -> auto& { return h.max; },
        tr("The longest wait the server may ask for"));
    connect(m_max, &QSpinBox::valueChanged, this, [this](int value) {
        if (m_loading)
            return;
        m_item.max = value < 0 ? std::nullopt : std::optional<Millis>(Millis(value));
        commit();
    });

    m_overMax = new QComboBox(this);
    m_overMax->addItems(PolicyNames::hintOverMax());
    addRow(b, u"over_max"_s, tr("Beyond it"), m_overMax, [](auto& h) -> auto& { return h.overMax; },
        tr("give-up: stop now; clamp: wait the longest instead; ignore: use the backoff"));
    connect(m_overMax, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_item.overMax = HintOverMax(index);
        commit();
    });

    addFlag(b, u"also_retry_after_ms"_s, tr("retry-after-ms"), tr("also read when Retry-After is absent"),
        [](auto& h) -> auto& { return h.alsoRetryAfterMs; });
    addFlag(b, u"zero_falls_back_to_backoff"_s, tr("Asked 0"), tr("use the backoff instead"),
        [](auto& h) -> auto& { return h.zeroFallsBackToBackoff; });
    addFlag(b, u"negative_means_stop"_s, tr("Negative"), tr("means: do not retry"),
        [](auto& h) -> auto& { return h.negativeMeansStop; });
    addFlag(b, u"invalid_means_stop"_s, tr("Unreadable"), tr("means: do not retry"),
        [](auto& h) -> auto& { return h.invalidMeansStop; });
    addFlag(b, u"capped_by_backoff_cap"_s, tr("Backoff cap"), tr("bounds the asked wait too"),
        [](auto& h) -> auto& { return h.cappedByBackoffCap; });
    addFlag(b, u"jittered"_s, tr("Jitter"), tr("shifts the asked wait too"), [](auto& h) -> auto& { return h.jittered; });
    addFlag(b, u"resets_exponent"_s, tr("Afterwards"), tr("the backoff starts again from its base"),
        [](auto& h) -> auto& { return h.resetsExponent; });
    addFlag(b, u"advances_backoff"_s, tr("Backoff"), tr("moves on to the next step after this wait"),
        [](auto& h) -> auto& { return h.advancesBackoff; });
}

void HintEditor::onStatusesEdited()
{
    const std::optional<QList<StatusRange>> ranges = m_statuses->ranges();
    const bool problemChanged = setInputProblem(u"statuses"_s, m_statuses->problem());
    if (ranges)
        m_item.statuses = *ranges;
    if (ranges && !(m_model->item(m_row).statuses == *ranges))
        commit();
    else if (problemChanged)
        emit edited();
}

void HintEditor::commit()
{
    if (m_loading || m_row < 0)
        return;
    updateRelevance();
    m_model->setItem(m_row, m_item);
    emit edited();
}

void HintEditor::updateRelevance()
{
    // Like the form's other fields: what has no effect is greyed, unless it holds a value to fix.
    m_window->setEnabled(m_item.combine == HintCombine::ClampAroundBackoff || m_item.window.count() < 0);
    m_overMax->setEnabled(m_item.max.has_value());
    m_flags.value(u"also_retry_after_ms"_s)->setEnabled(m_item.format == HintFormat::RetryAfter || m_item.alsoRetryAfterMs);
}

void HintEditor::loadRow(int row)
{
    m_row = row >= 0 && row < m_model->rowCount() ? row : -1;
    clearInputProblems();
    m_item = m_row >= 0 ? m_model->item(m_row) : DelayHint {};
    setEnabled(m_row >= 0);
    setTitle(m_row >= 0 ? tr("Hint %1").arg(m_row + 1) : tr("Hint (select one above)"));

    m_loading = true;
    m_header->setText(m_item.header);
    m_format->setCurrentIndex(int(m_item.format));
    m_statuses->setRanges(m_item.statuses);
    m_combine->setCurrentIndex(int(m_item.combine));
    m_window->setValue(int(m_item.window.count()));
    m_max->setValue(m_item.max ? int(m_item.max->count()) : -1);
    m_overMax->setCurrentIndex(int(m_item.overMax));
    for (const auto& load : std::as_const(m_loaders))
        load();
    m_loading = false;
    updateRelevance();
    refreshMarks();
}

bool HintEditor::showsModelItem() const
{
    return m_row >= 0 && m_row < m_model->rowCount() && m_model->item(m_row) == m_item;
}

void HintEditor::refreshMarks()
{
    const DelayHint* reference = m_model->referenceItem(m_row);
    for (PolicyField& f : m_fields) {
        const auto same = m_same.value(f.path);
        f.setChanged(m_row >= 0 && reference && same && !same(m_item, *reference));
    }
}
