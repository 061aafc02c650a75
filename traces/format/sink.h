// Writers of trace records: text or binary. finish() must be called for the
// output to be complete (the binary writer's end marker; both flush and check).
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "record.h"

namespace dcusim::trace {

class RecordSink {
public:
    virtual ~RecordSink() = default;
    virtual void write(const Record& r) = 0;
    virtual void finish() = 0;
};

class TextWriter : public RecordSink {
public:
    explicit TextWriter(std::ostream& out) : out_(out) {}
    void write(const Record& r) override;
    void finish() override;

private:
    std::ostream& out_;
    bool header_ = false;
};

// Writes one statement of the text grammar (no newline).
std::string format_record(const Record& r);

}  // namespace dcusim::trace
