// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/routeform.h"

#include <QComboBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLineEdit>

using namespace Qt::StringLiterals;

RouteForm::RouteForm(QWidget* parent)
    : QWidget(parent)
    , m_name(new QLineEdit(this))
    , m_method(new QLineEdit(this))
    , m_path(new QLineEdit(this))
    , m_mode(new QComboBox(this))
    , m_idempotency(new QComboBox(this))
{
    m_name->setPlaceholderText(tr("METHOD path"));
    m_method->setPlaceholderText(tr("any"));
    m_method->setToolTip(tr("POST, or several: PUT, PATCH. Empty or * for any method"));
    m_path->setToolTip(tr("/v1/payments/* (* is one segment or part of one), /api/** (any rest, last only)"));
    m_mode->addItem(tr("sequence"), u"sequence"_s);
    m_mode->addItem(tr("loop"), u"loop"_s);
    m_mode->addItem(tr("random (by weight)"), u"random"_s);
    m_mode->setToolTip(tr("sequence: in order, the last keeps answering; loop: start over; random: drawn by weight "
                          "from the scenario's seed"));
    m_idempotency->addItem(tr("off"), 0);
    m_idempotency->addItem(tr("keys honoured"), 1);
    m_idempotency->addItem(tr("key required"), 2);

    for (QComboBox* box : { m_mode, m_idempotency }) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&Path"), m_path);
    form->addRow(tr("&Method"), m_method);
    form->addRow(tr("M&ode"), m_mode);
    form->addRow(tr("Idempotency"), m_idempotency);
    form->addRow(tr("&Name"), m_name);

    connect(m_name, &QLineEdit::textEdited, this,
        [this](const QString& t) { set(u"name"_s, t.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(t)); });
    connect(m_path, &QLineEdit::textEdited, this, [this](const QString& t) { set(u"path"_s, t); });
    connect(m_method, &QLineEdit::textEdited, this, [this](const QString& text) {
        QStringList methods;
        for (const QString& m : text.split(u',', Qt::SkipEmptyParts)) {
            if (!m.trimmed().isEmpty())
                methods << m.trimmed();
        }
        if (methods.isEmpty())
            set(u"method"_s, QJsonValue(QJsonValue::Undefined));
        else if (methods.size() == 1)
            set(u"method"_s, methods.first());
        else
            set(u"method"_s, QJsonArray::fromStringList(methods));
    });
    connect(m_mode, &QComboBox::activated, this, [this] { set(u"mode"_s, m_mode->currentData().toString()); });
    connect(m_idempotency, &QComboBox::activated, this, [this] {
        const int v = m_idempotency->currentData().toInt();
        QJsonObject idem = m_route.value(u"idempotency"_s).toObject(); // keeps a header name given
        if (v == 0) {
            set(u"idempotency"_s, QJsonValue(QJsonValue::Undefined));
        } else if (v == 1 && idem.isEmpty()) {
            set(u"idempotency"_s, true);
        } else {
            idem.insert(u"required"_s, v == 2);
            set(u"idempotency"_s, idem);
        }
    });
}

void RouteForm::set(const QString& key, const QJsonValue& value)
{
    if (m_loading)
        return;
    if (value.isUndefined())
        m_route.remove(key);
    else
        m_route.insert(key, value);
    emit routeEdited(m_route);
}

void RouteForm::setRoute(const QJsonObject& route)
{
    m_loading = true;
    m_route = route;
    m_name->setText(route.value(u"name"_s).toString());
    m_path->setText(route.value(u"path"_s).toString());
    const QJsonValue method = route.value(u"method"_s);
    QStringList methods;
    if (method.isArray()) {
        for (const QJsonValue& m : method.toArray())
            methods << m.toString();
    } else {
        methods << method.toString();
    }
    m_method->setText(methods.join(u", "_s));
    m_mode->setCurrentIndex(std::max(0, m_mode->findData(route.value(u"mode"_s).toString(u"sequence"_s))));
    const QJsonValue idem = route.value(u"idempotency"_s);
    m_idempotency->setCurrentIndex(idem.isObject() ? (idem.toObject().value(u"required"_s).toBool() ? 2 : 1) : (idem.toBool() ? 1 : 0));
    m_loading = false;
}
