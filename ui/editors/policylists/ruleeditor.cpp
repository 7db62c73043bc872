// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/ruleeditor.h"

#include "editors/policyformbuilder.h"
#include "editors/policylists/rulelistmodel.h"
#include "editors/policylists/statuslistedit.h"

#include "policy/policyjson.h"

#include <QGridLayout>
#include <QFormLayout>
#include <QGroupBox>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

// An optional boolean as a choice of three: unset, true, false.
QComboBox* triStateBox(QWidget* parent, const QString& unset, const QString& yes, const QString& no)
{
    auto* box = new QComboBox(parent);
    box->addItems({ unset, yes, no });
    return box;
}

void setTriState(QComboBox* box, const std::optional<bool>& value)
{
    box->setCurrentIndex(!value ? 0 : *value ? 1 : 2);
}

std::optional<bool> triState(const QComboBox* box)
{
    switch (box->currentIndex()) {
    case 1:
        return true;
    case 2:
        return false;
    default:
        return std::nullopt;
    }
}

// Compares one part of two rules, picked by ACC.
template<typename Acc>
std::function<bool(const RetryRule&, const RetryRule&)> sameBy(Acc acc)
{
    return [acc](const RetryRule& a, const RetryRule& b) { return acc(a) == acc(b); };
}

} // namespace

RuleEditor::RuleEditor(RuleListModel* model, QWidget* parent)
    : PolicyItemEditor(parent)
    , m_model(model)
{
    build();
    loadRow(-1);
}

QStringList RuleEditor::commonMethods()
{
    return { u"GET"_s, u"HEAD"_s, u"OPTIONS"_s, u"TRACE"_s, u"PUT"_s, u"DELETE"_s, u"POST"_s, u"PATCH"_s, u"CONNECT"_s };
}

PolicyField& RuleEditor::addRow(PolicyFormBuilder& b, const QString& path, const QString& label, QWidget* editor,
    std::function<bool(const RetryRule&, const RetryRule&)> same, const QString& help)
{
    m_same.insert(path, std::move(same));
    return b.row(path, label, editor, help);
}

void RuleEditor::build()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    PolicyFormBuilder b(this, layout, &m_fields);
    m_group = b.section(tr("Selected rule"));
    // In a narrow dock a field that does not fit beside its label goes under it.
    static_cast<QFormLayout*>(m_group->layout())->setRowWrapPolicy(QFormLayout::WrapLongRows);

    m_name = new QLineEdit(this);
    m_name->setPlaceholderText(tr("shown in decisions: \"(rule: transient-5xx)\""));
    addRow(b, u"name"_s, tr("Name"), m_name, sameBy([](auto& r) -> auto& { return r.name; }));
    connect(m_name, &QLineEdit::textEdited, this, [this](const QString& text) {
        m_item.name = text;
        commit();
    });

    m_outcome = new QComboBox(this);
    m_outcome->addItems(PolicyNames::outcomeKinds());
    addRow(b, u"when.outcome"_s, tr("Outcome"), m_outcome, sameBy([](auto& r) -> auto& { return r.when.outcome; }),
        tr("status: an HTTP answer arrived; error: it did not; any: either"));
    connect(m_outcome, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_item.when.outcome = OutcomeKind(index);
        commit();
    });

    addRow(b, u"when.methods"_s, tr("Methods"), methodsEditor(), sameBy([](auto& r) -> auto& { return r.when.methods; }),
        tr("The request method is one of these; none ticked: any method"));

    m_key = triStateBox(this, tr("either"), tr("present"), tr("absent"));
    addRow(b, u"when.idempotency_key"_s, tr("Idempotency key"), m_key,
        sameBy([](auto& r) -> auto& { return r.when.idempotencyKey; }), tr("The request carries an Idempotency-Key, or lacks one"));
    connect(m_key, &QComboBox::currentIndexChanged, this, [this] {
        m_item.when.idempotencyKey = triState(m_key);
        commit();
    });

    m_statuses = new StatusListEdit(this);
    addRow(b, u"when.statuses"_s, tr("Statuses"), m_statuses, sameBy([](auto& r) -> auto& { return r.when.statuses; }),
        tr("The HTTP status is one of these codes or ranges"));
    connect(m_statuses, &QLineEdit::textEdited, this, &RuleEditor::onStatusesEdited);

    addRow(b, u"when.errors"_s, tr("Errors"), errorsEditor(), sameBy([](auto& r) -> auto& { return r.when.errors; }),
        tr("How the attempt failed when no answer came; none ticked: any error"));

    m_couldHaveActed = triStateBox(this, tr("either"), tr("maybe (it could have acted)"), tr("no (it cannot have acted)"));
    addRow(b, u"when.server_could_have_acted"_s, tr("Server saw it"), m_couldHaveActed,
        sameBy([](auto& r) -> auto& { return r.when.serverCouldHaveActed; }),
        tr("No only for dns, refused, tls and connect-timeout: the server never saw the request"));
    connect(m_couldHaveActed, &QComboBox::currentIndexChanged, this, [this] {
        m_item.when.serverCouldHaveActed = triState(m_couldHaveActed);
        commit();
    });

    m_afterLostAnswer = triStateBox(this, tr("either"), tr("yes"), tr("no"));
    addRow(b, u"when.after_lost_answer"_s, tr("After lost answer"), m_afterLostAnswer,
        sameBy([](auto& r) -> auto& { return r.when.afterLostAnswer; }),
        tr("An earlier attempt of this request lost its answer (timeout, connection lost)"));
    connect(m_afterLostAnswer, &QComboBox::currentIndexChanged, this, [this] {
        m_item.when.afterLostAnswer = triState(m_afterLostAnswer);
        commit();
    });

    addRow(b, u"when.body"_s, tr("JSON body"), bodyEditor(), sameBy([](auto& r) -> auto& { return r.when.body; }),
        tr("The value at a path of the JSON body is one of the values (or exists)"));

    m_headers = new QPlainTextEdit(this);
    m_headers->setTabChangesFocus(true);
    m_headers->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_headers->setPlaceholderText(tr("One per line: Name, Name: a | b, or !Name (absent)"));
    m_headers->setFixedHeight(fontMetrics().lineSpacing() * 3 + 2 * m_headers->frameWidth() + 8);
    addRow(b, u"when.headers"_s, tr("Headers"), m_headers, sameBy([](auto& r) -> auto& { return r.when.headers; }),
        tr("Every line must match: the header is present (with one of the values), or absent with !"));
    connect(m_headers, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading)
            return;
        m_item.when.headers = headersFromText(m_headers->toPlainText());
        commit();
    });

    m_action = new QComboBox(this);
    m_action->addItems(PolicyNames::ruleActions());
    addRow(b, u"action"_s, tr("Then"), m_action, sameBy([](auto& r) -> auto& { return r.action; }),
        tr("retry, stop, or treat the outcome as a success"));
    connect(m_action, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_item.action = RuleAction(index);
        commit();
    });

    m_throttling = new QCheckBox(tr("counts as a throttling error"), this);
    addRow(b, u"throttling"_s, tr("Throttling"), m_throttling, sameBy([](auto& r) -> auto& { return r.throttling; }),
        tr("Budgets charge throttling errors differently, and the backoff may use its base after throttling"));
    connect(m_throttling, &QCheckBox::toggled, this, [this](bool on) {
        m_item.throttling = on;
        commit();
    });

    m_note = new QLineEdit(this);
    m_note->setPlaceholderText(tr("where the rule comes from"));
    addRow(b, u"note"_s, tr("Note"), m_note, sameBy([](auto& r) -> auto& { return r.note; }));
    connect(m_note, &QLineEdit::textEdited, this, [this](const QString& text) {
        m_item.note = text;
        commit();
    });
}

QWidget* RuleEditor::methodsEditor()
{
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(0);
    const QStringList methods = commonMethods();
    for (qsizetype i = 0; i < methods.size(); ++i) {
        const QString method = methods.at(i);
        auto* check = new QCheckBox(method, box);
        m_methods.insert(method, check);
        grid->addWidget(check, int(i / 3), int(i % 3));
        connect(check, &QCheckBox::toggled, this, [this, method](bool on) { onMethodToggled(method, on); });
    }
    m_otherMethods = new QLineEdit(box);
    m_otherMethods->setPlaceholderText(tr("other methods, e.g. PROPFIND, MKCOL"));
    m_otherMethods->setAccessibleName(tr("Other methods"));
    grid->addWidget(m_otherMethods, int((methods.size() + 2) / 3), 0, 1, 3);
    connect(m_otherMethods, &QLineEdit::textEdited, this, &RuleEditor::onOtherMethodsEdited);
    return box;
}

QWidget* RuleEditor::errorsEditor()
{
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(0);
    const QStringList names = errorClassNames();
    for (qsizetype i = 0; i < names.size(); ++i) {
        const ErrorClass error = *errorClassFromName(names.at(i));
        auto* check = new QCheckBox(names.at(i), box);
        check->setToolTip(errorClassServerCouldHaveActed(error) ? tr("The server may have acted on the request")
                                                                : tr("The server never saw the request"));
        m_errors.insert(int(error), check);
        grid->addWidget(check, int(i / 2), int(i % 2));
        connect(check, &QCheckBox::toggled, this, [this, error](bool on) {
            if (m_loading)
                return;
            m_item.when.errors.removeAll(error);
            if (on)
                m_item.when.errors << error;
            commit();
        });
    }
    return box;
}

QWidget* RuleEditor::bodyEditor()
{
    auto* box = new QWidget(this);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    m_bodyOn = new QCheckBox(tr("match a value in the JSON body"), box);
    m_bodyPath = new QLineEdit(box);
    m_bodyPath->setPlaceholderText(tr("path, e.g. errors[0].code"));
    m_bodyPath->setAccessibleName(tr("JSON body path"));
    m_bodyValues = new QLineEdit(box);
    m_bodyValues->setPlaceholderText(tr("values, comma-separated; none: the path exists"));
    m_bodyValues->setAccessibleName(tr("JSON body values"));
    column->addWidget(m_bodyOn);
    column->addWidget(m_bodyPath);
    column->addWidget(m_bodyValues);
    const auto store = [this] {
        if (m_loading)
            return;
        m_bodyPath->setEnabled(m_bodyOn->isChecked());
        m_bodyValues->setEnabled(m_bodyOn->isChecked());
        if (m_bodyOn->isChecked())
            m_item.when.body = BodyMatch { m_bodyPath->text(), PolicyFormBuilder::splitWords(m_bodyValues->text()) };
        else
            m_item.when.body.reset();
        commit();
    };
    connect(m_bodyOn, &QCheckBox::toggled, this, store);
    connect(m_bodyPath, &QLineEdit::textEdited, this, store);
    connect(m_bodyValues, &QLineEdit::textEdited, this, store);
    return box;
}

void RuleEditor::onMethodToggled(const QString& method, bool on)
{
    if (m_loading)
        return;
    // Only this method comes or goes; the others keep their order.
    m_item.when.methods.removeAll(method);
    if (on)
        m_item.when.methods << method;
    commit();
}

void RuleEditor::onOtherMethodsEdited()
{
    const QStringList common = commonMethods();
    QStringList methods;
    for (const QString& method : std::as_const(m_item.when.methods)) {
        if (common.contains(method))
            methods << method;
    }
    const QStringList typed = PolicyFormBuilder::splitWords(m_otherMethods->text());
    for (const QString& word : typed) {
        const QString method = word.toUpper(); // as the policy reader stores them
        if (!methods.contains(method))
            methods << method;
    }
    m_item.when.methods = methods;
    commit();
}

void RuleEditor::onStatusesEdited()
{
    const std::optional<QList<StatusRange>> ranges = m_statuses->ranges();
    const bool problemChanged = setInputProblem(u"when.statuses"_s, m_statuses->problem());
    if (ranges)
        m_item.when.statuses = *ranges;
    if (ranges && !(m_model->item(m_row).when.statuses == *ranges))
        commit();
    else if (problemChanged)
        emit edited();
}

QString RuleEditor::headersText(const QList<HeaderMatch>& headers)
{
    QStringList lines;
    for (const HeaderMatch& h : headers) {
        QString line = (h.absent ? u"!"_s : QString()) + h.name;
        if (!h.values.isEmpty())
            line += u": "_s + h.values.join(u" | "_s);
        lines << line;
    }
    return lines.join(u'\n');
}

QList<HeaderMatch> RuleEditor::headersFromText(const QString& text)
{
    QList<HeaderMatch> headers;
    const QStringList lines = text.split(u'\n');
    for (const QString& raw : lines) {
        QString line = raw.trimmed();
        if (line.isEmpty())
            continue;
        HeaderMatch match;
        if (line.startsWith(u'!')) {
            match.absent = true;
            line = line.mid(1).trimmed();
        }
        const qsizetype colon = line.indexOf(u':');
        match.name = (colon < 0 ? line : line.left(colon)).trimmed();
        if (colon >= 0) {
            const QStringList values = line.mid(colon + 1).split(u'|');
            for (const QString& value : values) {
                if (!value.trimmed().isEmpty())
                    match.values << value.trimmed();
            }
        }
        headers << match;
    }
    return headers;
}

void RuleEditor::commit()
{
    if (m_loading || m_row < 0)
        return;
    m_model->setItem(m_row, m_item);
    emit edited();
}

void RuleEditor::loadRow(int row)
{
    m_row = row >= 0 && row < m_model->rowCount() ? row : -1;
    clearInputProblems();
    m_item = m_row >= 0 ? m_model->item(m_row) : RetryRule {};
    setEnabled(m_row >= 0);
    setTitle(m_row >= 0 ? tr("Rule %1").arg(m_row + 1) : tr("Rule (select one above)"));

    m_loading = true;
    const RuleCondition& w = m_item.when;
    m_name->setText(m_item.name);
    m_name->setCursorPosition(0);
    m_outcome->setCurrentIndex(int(w.outcome));
    QStringList others;
    for (const QString& method : w.methods) {
        if (!m_methods.contains(method))
            others << method;
    }
    for (auto it = m_methods.cbegin(); it != m_methods.cend(); ++it)
        it.value()->setChecked(w.methods.contains(it.key()));
    m_otherMethods->setText(others.join(u", "_s));
    setTriState(m_key, w.idempotencyKey);
    m_statuses->setRanges(w.statuses);
    for (auto it = m_errors.cbegin(); it != m_errors.cend(); ++it)
        it.value()->setChecked(w.errors.contains(ErrorClass(it.key())));
    setTriState(m_couldHaveActed, w.serverCouldHaveActed);
    setTriState(m_afterLostAnswer, w.afterLostAnswer);
    m_bodyOn->setChecked(w.body.has_value());
    m_bodyPath->setText(w.body ? w.body->path : QString());
    m_bodyValues->setText(w.body ? w.body->values.join(u", "_s) : QString());
    m_bodyValues->setCursorPosition(0);
    m_bodyPath->setEnabled(w.body.has_value());
    m_bodyValues->setEnabled(w.body.has_value());
    m_headers->setPlainText(headersText(w.headers));
    m_action->setCurrentIndex(int(m_item.action));
    m_throttling->setChecked(m_item.throttling);
    m_note->setText(m_item.note);
    m_note->setCursorPosition(0);
    m_note->setToolTip(m_item.note);
    m_loading = false;
    refreshMarks();
}

bool RuleEditor::showsModelItem() const
{
    return m_row >= 0 && m_row < m_model->rowCount() && m_model->item(m_row) == m_item;
}

void RuleEditor::refreshMarks()
{
    const RetryRule* reference = m_model->referenceItem(m_row);
    for (PolicyField& f : m_fields) {
        const auto same = m_same.value(f.path);
        f.setChanged(m_row >= 0 && reference && same && !same(m_item, *reference));
    }
}
