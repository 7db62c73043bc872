// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

// The form for one step of a scenario (resources/docs/scenario-format.md, "Steps"): its kind, weight and
// repeat, the answer (status, Retry-After, headers, body) and the kind's own keys. It edits the step's JSON
// object and hands every change back at once (stepEdited), touching only the key the user changed, so keys
// it has no field for stay as they were. Rows that do not apply to the kind are hidden unless the step has
// the key (then the loader's message about it can be acted on).
class StepForm : public QWidget
{
    Q_OBJECT
public:
    explicit StepForm(QWidget* parent = nullptr);

    void setStep(const QJsonObject& step);
    const QJsonObject& step() const { return m_step; }
    // The step's route draws at random: the weight matters, not the repeat count.
    void setRandom(bool random);

    QComboBox* kindBox() const { return m_kind; }
    QSpinBox* weightBox() const { return m_weight; }
    QSpinBox* statusBox() const { return m_status; }
    QDoubleSpinBox* retryAfterBox() const { return m_retryAfter; }
    QComboBox* thenBox() const { return m_then; }
    QComboBox* outageModeBox() const { return m_mode; }
    QSpinBox* durationBox() const { return m_duration; }
    QSpinBox* rampToBox() const { return m_rampTo; }
    QSpinBox* rampFromBox() const { return m_rampFrom; }
    QSpinBox* rampOverBox() const { return m_rampOver; }
    QComboBox* rampUnitBox() const { return m_rampUnit; }
    QPlainTextEdit* headersEdit() const { return m_headers; }
    QPlainTextEdit* bodyEdit() const { return m_body; }

Q_SIGNALS:
    void stepEdited(const QJsonObject& step);

private:
    void set(const QString& key, const QJsonValue& value); // undefined: remove
    void showRows();
    void writeRetryAfter();
    void writeDribble();
    void writeRamp();
    void writeHeaders();
    void writeBody();

    QJsonObject m_step;
    bool m_loading = false;
    bool m_random = false;
    QFormLayout* m_form;
    QComboBox* m_kind;
    QSpinBox* m_weight;
    QSpinBox* m_repeat;
    QSpinBox* m_status;
    QWidget* m_retryRow;
    QDoubleSpinBox* m_retryAfter;
    QComboBox* m_retryForm;
    QSpinBox* m_delay;
    QSpinBox* m_duration;
    QComboBox* m_mode; // outage: status, reset, refuse
    QWidget* m_rampRow;
    QSpinBox* m_rampFrom;
    QSpinBox* m_rampTo; // -1: no ramp
    QSpinBox* m_rampOver;
    QComboBox* m_rampUnit; // over_ms or over_requests
    QComboBox* m_then;
    QComboBox* m_applied;
    QSpinBox* m_truncateAfter;
    QWidget* m_dribbleRow;
    QSpinBox* m_dribbleBytes;
    QSpinBox* m_dribbleInterval;
    QPlainTextEdit* m_headers;
    QWidget* m_bodyRow;
    QPlainTextEdit* m_body;
    QCheckBox* m_bodyIsJson;
    QLineEdit* m_garbage;
    QLineEdit* m_note;
    QLabel* m_problem; // what this form itself cannot turn into JSON (a header line without a colon…)
};
