#pragma once
// What the run dialog offers, read from `hitmap-collect list --json` (the built-in workloads
// and those of the app's plugins, which only the collector loads): each workload's variants
// and parameters, and the simulated machines.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace hitmap::gui {

struct WorkloadChoice {
    QString name;
    QString description;
    QStringList variants; // in the workload's order
    QStringList params;   // "NAME=DEFAULT", as --param takes them
};

struct CollectorList {
    std::vector<WorkloadChoice> workloads;
    QStringList machines; // --simulate's built-in machines
};

// nullopt when the text is not the list's JSON.
std::optional<CollectorList> parse_collector_list(const QByteArray& json);

} // namespace hitmap::gui
