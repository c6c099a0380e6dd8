#include "collector/run/progress.hpp"

#include "collector/support/control_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace hitmap::collector {

Progress::Progress(ProgressStyle style, std::FILE* out)
    : style_(style)
    , out_(out) {
    if (style_ == ProgressStyle::automatic)
        style_ = isatty(fileno(out)) ? ProgressStyle::bar : ProgressStyle::none;
}

Progress::~Progress() {
    finish();
}

void Progress::finish() {
    if (style_ == ProgressStyle::bar && total_ > 0 && !finished_) {
        std::fputs("\n", out_);
        std::fflush(out_);
    }
    finished_ = true;
}

void Progress::begin(std::size_t index, std::size_t total, const std::string& label) {
    index_ = index;
    total_ = total;
    label_ = label;
    fraction_ = 0;
    phase_ = "running";
    if (style_ == ProgressStyle::json) {
        nlohmann::json j{{"event", "begin"}, {"index", index}, {"total", total}, {"label", label}};
        fmt::print(out_, "{}\n", support::json_text(j, -1));
        std::fflush(out_);
    } else {
        draw();
    }
}

void Progress::update(double fraction, const std::string& phase) {
    fraction_ = fraction;
    phase_ = phase;
    if (style_ == ProgressStyle::json) {
        nlohmann::json j{{"event", "progress"},
                         {"index", index_},
                         {"total", total_},
                         {"fraction", fraction},
                         {"phase", phase}};
        fmt::print(out_, "{}\n", support::json_text(j, -1));
        std::fflush(out_);
    } else {
        draw();
    }
}

void Progress::end(bool ok, const std::string& summary) {
    if (style_ == ProgressStyle::json) {
        nlohmann::json j{{"event", "end"},
                         {"index", index_},
                         {"total", total_},
                         {"ok", ok},
                         {"summary", summary}};
        fmt::print(out_, "{}\n", support::json_text(j, -1));
        std::fflush(out_);
        return;
    }
    fraction_ = 1;
    phase_ = summary;
    draw();
}

void Progress::draw() {
    if (style_ != ProgressStyle::bar || total_ == 0)
        return;
    const double overall = (static_cast<double>(index_) + fraction_) / static_cast<double>(total_);
    constexpr int width = 24;
    const int filled = static_cast<int>(overall * width);
    fmt::print(out_, "\r\033[K[{:=<{}}{: <{}}] {}/{} {} {}", "", filled, "", width - filled,
               index_ + 1, total_, label_, phase_);
    std::fflush(out_);
}

} // namespace hitmap::collector
