#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/sim/machine_description.hpp"
#include "engine/layout/layout_registry.hpp"
#include "engine/workloads/workload.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace hitmap::cli {

int& command_exit_status() {
    static int status = 0;
    return status;
}

namespace {

// What `list` prints: everything, or one of its three sections.
struct ListSections {
    bool workloads = true, layouts = true, machines = true;
};

ListSections sections_named(const std::string& what) {
    if (what.empty())
        return {};
    return {what == "workloads", what == "layouts", what == "machines"};
}

nlohmann::json workloads_json() {
    nlohmann::json out = nlohmann::json::array();
    for (const engine::Workload* w : engine::all_workloads()) {
        const auto& info = w->info();
        nlohmann::json j{
            {"name", info.name}, {"seed", info.seed}, {"description", info.description}};
        for (const auto& v : info.variants)
            j["variants"].push_back({{"name", v.name}, {"description", v.description}});
        for (const auto& p : info.params) {
            nlohmann::json param{
                {"name", p.name}, {"default", p.default_value}, {"description", p.description}};
            if (p.default_value.is_number_unsigned()) {
                param["min"] = p.min;
                param["max"] = p.max;
            }
            j["params"].push_back(std::move(param));
        }
        out.push_back(j);
    }
    return out;
}

nlohmann::json list_json(ListSections s) {
    nlohmann::json out = nlohmann::json::object();
    if (s.workloads)
        out["workloads"] = workloads_json();
    if (s.layouts) {
        out["layouts"] = nlohmann::json::array();
        for (const engine::Layout* l : engine::known_layouts())
            out["layouts"].push_back({{"struct", l->type->name},
                                      {"version", l->version},
                                      {"size", l->size},
                                      {"align", l->align}});
    }
    if (s.machines) {
        out["machines"] = nlohmann::json::array();
        for (const sim::MachineDescription& m : sim::builtin_machines())
            out["machines"].push_back(sim::machine_to_json(m));
    }
    return out;
}

// A whole-number parameter's range, where it is narrower than any count's.
std::string range_text(const engine::ParamSpec& p) {
    if (!p.default_value.is_number_unsigned() || p.max == engine::ParamSpec{}.max)
        return "";
    return fmt::format(" ({}..{})", p.min, p.max);
}

// Workloads and layouts may come from plugins: their text is printed escaped.
void print_workloads() {
    using report::escape_control;
    for (const engine::Workload* w : engine::all_workloads()) {
        const auto& info = w->info();
        fmt::print("{}  (seed {})\n  {}\n  variants:\n", escape_control(info.name),
                   escape_control(info.seed), escape_control(info.description));
        for (const auto& v : info.variants)
            fmt::print("    {:<12} {}\n", escape_control(v.name), escape_control(v.description));
        fmt::print("  parameters (--param NAME=VALUE):\n");
        std::size_t width = 12;
        for (const auto& p : info.params)
            width = std::max(width, escape_control(p.name).size());
        for (const auto& p : info.params)
            fmt::print("    {:<{}} default {:<6} {}{}\n", escape_control(p.name), width,
                       escape_control(report::json_text(p.default_value, -1)),
                       escape_control(p.description), range_text(p));
        fmt::print("\n");
    }
}

void print_layouts() {
    using report::escape_control;
    fmt::print("layouts (--layout STRUCT=VERSION, STRUCT=FILE.json or STRUCT=btf[:FILE]):\n");
    for (const engine::Layout* l : engine::known_layouts())
        fmt::print("  {:<16} {:<6} {:>4} bytes, align {}\n", escape_control(l->type->name),
                   escape_control(l->version), l->size, l->align);
}

void print_machines() {
    fmt::print("machines (run --simulate NAME, or a JSON description file):\n");
    for (const sim::MachineDescription& m : sim::builtin_machines())
        fmt::print("  {:<18} {}\n  {:<18} {} CPUs: {} sockets x {} cores x {} threads; transfer "
                   "{:g} / {:g} / {:g} ns (same LLC / socket / other socket)\n",
                   m.name, m.description, "", m.cpus(), m.sockets, m.cores_per_socket,
                   m.threads_per_core, m.latency.same_llc, m.latency.same_socket,
                   m.latency.remote_socket);
    fmt::print("  {:<18} this machine: its CPUs as one socket, the transfer latency measured by a "
               "ping-pong when a run starts\n",
               "host");
}

void print_list(ListSections s) {
    if (s.workloads)
        print_workloads();
    if (s.layouts)
        print_layouts();
    if (s.machines) {
        if (s.layouts)
            fmt::print("\n");
        print_machines();
    }
}

} // namespace

void add_list_command(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "list", "List the workloads, their variants and parameters, the known layouts and the "
                "simulated machines");
    auto json = std::make_shared<bool>(false);
    auto what = std::make_shared<std::string>();
    cmd->add_option("what", *what, "Only this section: workloads, layouts or machines")
        ->check(CLI::IsMember({"workloads", "layouts", "machines"}));
    cmd->add_flag("--json", *json, "Print JSON instead of text");
    cmd->callback([json, what] {
        const ListSections s = sections_named(*what);
        if (*json)
            fmt::print("{}\n", report::json_text(list_json(s)));
        else
            print_list(s);
    });
}

} // namespace hitmap::cli
