// Reader for the text trace format (docs/trace-format.md), one line at a time.
#pragma once

#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "source.h"

namespace dcusim::trace {

class TextReader : public RecordSource {
public:
    // Reads from `in`; `name` is used in error messages.
    TextReader(std::unique_ptr<std::istream> in, std::string name);
    static std::unique_ptr<TextReader> open(const std::string& path);

    bool next(Record& r) override;
    std::string where() const override { return name_ + ":" + std::to_string(line_no_); }

private:
    [[noreturn]] void fail(const std::string& what) const;
    uint64_t number(size_t i, const char* what) const;
    int64_t signed_number(size_t i, const char* what) const;
    void need(size_t n, const char* usage) const;
    void parse_statement(const std::string& kw, Record& r) const;  // the line after its keyword
    void parse_kernel(Record& r) const;
    void parse_mem(Record& r) const;
    void parse_copy(Record& r) const;
    void parse_host(Record& r) const;  // sync, host, map

    std::unique_ptr<std::istream> in_;
    std::string name_;
    uint64_t line_no_ = 0;
    bool header_seen_ = false;
    std::vector<std::string> tok_;
};

}  // namespace dcusim::trace
