#include "collector/locks/lockstat_printer.hpp"

#include "collector/locks/lockstat_layout.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <string_view>

namespace hitmap::locks {

namespace {

class LockStatPrinter {
public:
    std::string print(const LockStatReport& report) {
        header(report.lockdep_disabled);
        std::vector<const LockClassStats*> order;
        for (const auto& stats : report.classes)
            order.push_back(&stats);
        std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
            return a->total_contentions() > b->total_contentions();
        });
        for (const auto* stats : order)
            lock_class(*stats);
        return std::move(out_);
    }

    std::string print_header(bool lockdep_disabled) {
        header(lockdep_disabled);
        return std::move(out_);
    }

    std::string print_class(const LockClassStats& stats) {
        lock_class(stats);
        return std::move(out_);
    }

private:
    // printf's "%Ns" pads by bytes; fmt's width counts code points, so pad by hand.
    void right_aligned(std::string_view text, int width) {
        if (static_cast<int>(text.size()) < width)
            out_.append(static_cast<std::size_t>(width) - text.size(), ' ');
        out_.append(text);
    }

    // seq_line
    void rule(char c, int offset, int length) {
        out_.append(static_cast<std::size_t>(std::max(offset, 0)), ' ');
        out_.append(static_cast<std::size_t>(std::max(length, 0)), c);
        out_ += '\n';
    }

    void header(bool lockdep_disabled) {
        out_ += "lock_stat version 0.4\n";
        if (lockdep_disabled)
            out_ += "*WARNING* lock debugging disabled!! - possibly due to a lockdep warning\n";
        rule('-', 0, kV04LineLength);
        right_aligned(title(LockstatColumn::class_name), kNameWidth);
        for (const auto column : v04_columns()) {
            out_ += ' ';
            right_aligned(title(column), kColumnWidth);
        }
        out_ += '\n';
        rule('-', 0, kV04LineLength);
        out_ += '\n';
    }

    // What the source did not measure (kernel tracepoints have no acquisitions or hold
    // times) prints as "-", never as a 0 the kernel would have counted.
    void count(std::optional<std::uint64_t> value) {
        if (value)
            fmt::format_to(std::back_inserter(out_), "{:>14}", *value);
        else
            right_aligned("-", kColumnWidth);
    }

    void time(std::optional<std::int64_t> ns) {
        out_ += ' ';
        right_aligned(ns ? format_lockstat_time(*ns) : "-", kColumnWidth);
    }

    // seq_lock_time: the count, then min, max, total and average.
    void lock_time(std::optional<std::uint64_t> nr, const LockTimes& t) {
        count(nr);
        time(t.min_ns);
        time(t.max_ns);
        time(t.total_ns);
        std::optional<std::int64_t> avg = t.avg_ns;
        if (!avg && nr && t.total_ns)
            avg = lockdep_average(*t.total_ns, *nr);
        time(avg);
    }

    void row(const std::string& name, std::string_view suffix, const LockCounters& c) {
        right_aligned(name, kNameWidth - static_cast<int>(suffix.size()));
        out_ += suffix;
        out_ += ':';
        count(c.con_bounces);
        out_ += ' ';
        lock_time(c.contentions, c.wait);
        out_ += ' ';
        count(c.acq_bounces);
        out_ += ' ';
        lock_time(c.acquisitions, c.hold);
        out_ += '\n';
    }

    void points(const LockClassStats& stats, const std::vector<LockPoint>& list) {
        // The dash line is as long as the name, 2 longer when an -R row was printed.
        const int namelen = static_cast<int>(stats.name.size()) + (stats.read ? 2 : 0);
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (i == 0)
                rule('-', kNameWidth - namelen, namelen);
            const LockPoint& p = list[i];
            right_aligned(stats.name, kNameWidth);
            out_ += ' ';
            count(p.count);
            out_ += ' ';
            const std::string ip =
                p.address ? fmt::format("[<{:016x}>]", *p.address) : "[<(____ptrval____)>]";
            right_aligned(ip, kAddressWidth);
            out_ += ' ';
            out_ += p.symbol;
            out_ += '\n';
        }
    }

    void lock_class(const LockClassStats& stats) {
        if (stats.write)
            row(stats.name, stats.read ? "-W" : "", *stats.write);
        if (stats.read)
            row(stats.name, "-R", *stats.read);
        points(stats, stats.contention_points);
        points(stats, stats.contending_points);
        if (!stats.contending_points.empty()) {
            out_ += '\n';
            rule('.', 0, kV04LineLength);
            out_ += '\n';
        }
    }

    std::string out_;
};

} // namespace

std::string format_lockstat_time(std::int64_t ns) {
    // nr += 5; div_s64_rem(nr, 1000, &rem); "%lld.%02d" with rem / 10 — in 128 bits so that the
    // rounding cannot overflow.
    const __int128 nr = static_cast<__int128>(ns) + 5;
    const auto div = static_cast<long long>(nr / 1000);
    const auto rem = static_cast<int>(nr % 1000);
    return fmt::format("{}.{:02}", div, rem / 10);
}

std::string format_lock_stat_v04(const LockStatReport& report) {
    return LockStatPrinter().print(report);
}

std::string format_lock_stat_v04_header(bool lockdep_disabled) {
    return LockStatPrinter().print_header(lockdep_disabled);
}

std::string format_lock_stat_v04_class(const LockClassStats& stats) {
    return LockStatPrinter().print_class(stats);
}

} // namespace hitmap::locks
