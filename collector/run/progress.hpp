#pragma once
// Progress of long work on stderr: a bar when stderr is a terminal, one JSON object per line
// for the GUI (--progress=json), or nothing. stdout stays reserved for the data.
#include <cstdio>
#include <string>

namespace hitmap::collector {

enum class ProgressStyle { automatic, bar, json, none };

class Progress {
public:
    explicit Progress(ProgressStyle style, std::FILE* out = stderr);
    ~Progress();

    // One unit of planned work (a run) starting: index is 0-based, total the planned count.
    void begin(std::size_t index, std::size_t total, const std::string& label);
    // Fraction 0..1 of the current unit.
    void update(double fraction, const std::string& phase);
    void end(bool ok, const std::string& summary);
    // Ends the bar's line, once: call it before the data goes to stdout, which shares the
    // terminal (the table's header was glued to the bar's last line). The destructor calls it.
    void finish();

private:
    void draw();

    ProgressStyle style_;
    std::FILE* out_;
    std::size_t index_ = 0, total_ = 0;
    std::string label_, phase_;
    double fraction_ = 0;
    bool finished_ = false;
};

} // namespace hitmap::collector
