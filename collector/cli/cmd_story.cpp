#include "collector/analysis/story.hpp"
#include "collector/cli/commands.hpp"
#include "collector/report/output_text.hpp"
#include "collector/report/unknown.hpp"
#include "collector/store/database.hpp"
#include "collector/store/layout_table.hpp"

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace hitmap::cli {

void add_story_command(CLI::App& app) {
    auto o = std::make_shared<CommonOptions>();
    auto* cmd = app.add_subcommand(
        "story",
        "The workload story the database's runs tell, which the app and `make run` open on: the "
        "workload, its before and after variants with their newest traced runs (same source and "
        "threads), and the struct and field the story is about");
    cmd->add_option("--db", o->db, "SQLite database")->capture_default_str();
    cmd->add_flag("--json", o->json, "Print JSON (null when the runs tell no story)");
    cmd->callback([o] {
        store::Database db =
            store::Database::open(o->db, {.create_if_missing = false, .read_only = true});
        const auto story = analysis::find_story(db.runs());
        if (o->json) {
            // The layouts the after run's objects were recorded under, as `predict BEFORE
            // --layout STRUCT=VERSION ...` takes them: the before run's trace replayed under them
            // is the prediction the Compare view sets beside the after run.
            nlohmann::json after_layouts = nlohmann::json::array();
            if (story && story->after)
                for (const auto& l : store::run_layouts(db, *story->after))
                    after_layouts.push_back(l.layout.struct_name + "=" + l.layout.version);
            fmt::print("{}\n", story ? report::json_text(nlohmann::json{
                                           {"workload", story->workload},
                                           {"before_variant", story->story.before},
                                           {"after_variant", story->story.after},
                                           {"struct", story->story.layout_struct},
                                           {"field", story->story.field},
                                           {"before", story->before},
                                           {"after", report::json_or_null(story->after)},
                                           {"after_layouts", after_layouts}})
                                     : std::string("null"));
            return;
        }
        if (!story) {
            fmt::print("no workload story in {}: no traced run of a story's \"before\" variant "
                       "(`hitmap-collect suite default` collects them)\n",
                       o->db);
            return;
        }
        fmt::print("{}: {} -> {}, struct {}, field {}\n", story->workload, story->story.before,
                   story->story.after, story->story.layout_struct, story->story.field);
        fmt::print("before: run {}\n", story->before);
        fmt::print("after:  {}\n", story->after ? fmt::format("run {}", *story->after)
                                                : std::string("no run of the same source and "
                                                              "threads"));
    });
}

} // namespace hitmap::cli
