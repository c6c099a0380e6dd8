#include "collector/store/file_probe.hpp"

#include "collector/store/errors.hpp"
#include "schemas/migrations.hpp"

#include <SQLiteCpp/Database.h>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <string_view>
#include <unistd.h>

namespace hitmap::store {
namespace {

constexpr std::string_view sqlite_magic{"SQLite format 3\0", 16};

// The first bytes of the file; empty for a zero-length file.
std::string read_magic(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw StoreIoError(path, fmt::format("cannot read: {}", std::strerror(errno)));
    std::array<char, sqlite_magic.size()> buf{};
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    const int read_errno = errno;
    ::close(fd);
    if (n < 0)
        throw StoreIoError(path, fmt::format("cannot read: {}", std::strerror(read_errno)));
    return {buf.data(), static_cast<std::size_t>(n)};
}

bool folder_writable(const std::filesystem::path& path) {
    const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
    return ::access(folder.c_str(), W_OK) == 0;
}

bool has_wal_content(const std::filesystem::path& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path.string() + "-wal", ec);
    return !ec && size > 0;
}

// RFC 3986 percent-encoding of the characters an SQLite URI path gives meaning to.
std::string uri_path(const std::filesystem::path& path) {
    std::string out;
    for (const char c : std::filesystem::absolute(path).string()) {
        if (c == '%' || c == '?' || c == '#' || static_cast<unsigned char>(c) < 0x20)
            out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
            out += c;
    }
    return out;
}

std::optional<int> inspect_sqlite(const std::filesystem::path& path) {
    SQLite::Database db = open_sqlite_read_only(path, 5000);
    const int app = db.execAndGet("PRAGMA application_id").getInt();
    const int version = db.execAndGet("PRAGMA user_version").getInt();
    if (app == schemas::application_id) {
        // The store writes its version twice, PRAGMA user_version and a schema_version row
        // per migration; a file whose rows name a later version than the pragma was written
        // by a newer hitmap (or tampered with) and is not to be half-understood.
        if (db.tableExists("schema_version"))
            if (const int recorded =
                    db.execAndGet("SELECT coalesce(max(version), 0) FROM schema_version").getInt();
                recorded > version)
                return recorded;
        return version;
    }
    const int objects = db.execAndGet("SELECT count(*) FROM sqlite_schema").getInt();
    if (app == 0 && version == 0 && objects == 0)
        return std::nullopt;
    if (app != 0)
        throw NotAHitmapDatabase(
            path, fmt::format("SQLite database of another application (application_id {:#010x})",
                              static_cast<std::uint32_t>(app)));
    throw NotAHitmapDatabase(
        path, fmt::format("SQLite database of another application ({} tables and indexes, "
                          "no hitmap application_id)",
                          objects));
}

} // namespace

SQLite::Database open_sqlite_read_only(const std::filesystem::path& path, int busy_timeout_ms) {
    if (folder_writable(path)) {
        // What a read-write connection would write into the file: WAL content (checkpointed
        // at close) or a crashed writer's rollback journal (rolled back at the first read).
        std::error_code ec;
        if (has_wal_content(path) || std::filesystem::exists(path.string() + "-journal", ec))
            return SQLite::Database(path, SQLite::OPEN_READONLY, busy_timeout_ms);
        // A read-only connection to a WAL database creates -wal and -shm beside it and, unable
        // to checkpoint, leaves them when it closes. A read-write one that may not write
        // (query_only) removes them as the last connection, as every writer does; with no WAL
        // content there is nothing to checkpoint, so the database file is not written.
        SQLite::Database db(path, SQLite::OPEN_READWRITE, busy_timeout_ms);
        db.exec("PRAGMA query_only = ON");
        return db;
    }
    if (has_wal_content(path))
        throw StoreIoError(path, "the folder is read-only and the database has changes not yet "
                                 "checkpointed (its -wal file): copy the database with its -wal "
                                 "file to a writable folder to read it");
    return SQLite::Database("file:" + uri_path(path) + "?immutable=1",
                            SQLite::OPEN_READONLY | SQLite::OPEN_URI, busy_timeout_ms);
}

std::optional<int> probe_schema_version(const std::filesystem::path& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found)
        return std::nullopt;
    if (ec)
        throw StoreIoError(path, fmt::format("cannot inspect: {}", ec.message()));
    if (status.type() != std::filesystem::file_type::regular)
        throw NotAHitmapDatabase(path, "not a regular file");
    const std::string magic = read_magic(path);
    if (magic.empty())
        return std::nullopt;
    if (magic != sqlite_magic)
        throw NotAHitmapDatabase(path, "not an SQLite database");
    try {
        return inspect_sqlite(path);
    } catch (const SQLite::Exception& e) {
        throw_decoded(e, path);
    }
}

} // namespace hitmap::store
