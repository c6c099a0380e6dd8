#pragma once
// An exported report as one self-contained HTML page: no script, no stylesheet or image from
// elsewhere. The pictures come from whoever can draw them (the app's chart builders, as inline
// SVG or as images the PDF writer holds); this file lays out the words and tables around them
// and escapes every stored string.
#include "collector/analysis/report_data.hpp"

#include <string>

namespace hitmap::report {

// Each returns an HTML fragment (an inline <svg>, an <img>), or "" to leave the picture out.
class ReportPictures {
public:
    virtual ~ReportPictures() = default;
    // The compared object's fields, HITM per 1k traced ops before and after.
    virtual std::string field_bars(const analysis::Report& report,
                                   const analysis::PairSection& pair) = 0;
    // The compared object's lines in both runs, each field a box coloured by its transfers.
    virtual std::string line_strips(const analysis::Report& report,
                                    const analysis::PairSection& pair) = 0;
    // Contentions per lock class before and after.
    virtual std::string lock_bars(const analysis::Report& report,
                                  const analysis::PairSection& pair) = 0;
    virtual std::string scaling(const analysis::WorkloadScaling& workload) = 0;
    virtual std::string wait_histogram(const analysis::LockClassRow& lock_class) = 0;
};

// `generator` names what wrote the page ("hitmap 0.9"), for the footer.
std::string report_html(const analysis::Report& report, ReportPictures& pictures,
                        const std::string& generator);

} // namespace hitmap::report
