#include "host_program.h"

namespace dcusim {

namespace {

CopyDir dir_of(trace::CopyDir d) {
    return d == trace::CopyDir::H2D ? CopyDir::H2D : d == trace::CopyDir::D2H ? CopyDir::D2H : CopyDir::D2D;
}

HostMem mem_of(trace::HostMemKind m) {
    switch (m) {
        case trace::HostMemKind::Pageable: return HostMem::Pageable;
        case trace::HostMemKind::Pinned: return HostMem::Pinned;
        case trace::HostMemKind::WriteCombined: return HostMem::WriteCombined;
        case trace::HostMemKind::Mapped: return HostMem::Mapped;
        case trace::HostMemKind::Device: return HostMem::Device;
    }
    return HostMem::Pinned;
}

}  // namespace

void HostProgram::statement(const trace::Record& r) {
    HostOp op;
    const trace::HostCall& h = r.host;
    switch (r.kind) {
        case trace::RecKind::Copy:
            op.kind = HostOp::Kind::Copy, op.dir = dir_of(h.dir), op.mem = mem_of(h.mem), op.bytes = h.bytes;
            op.async = h.async, op.stream = uint32_t(h.stream);
            break;
        case trace::RecKind::Sync:
            op.kind = HostOp::Kind::Sync, op.stream = uint32_t(h.stream), op.device = !h.has_stream;
            break;
        case trace::RecKind::Host:
            op.kind = HostOp::Kind::Host, op.ps = h.ns * 1000;
            break;
        case trace::RecKind::Map: has_host_ = true; return;
        default: return;
    }
    has_host_ = true;
    ops_.push_back(op);
}

void HostProgram::kernel(const std::string& name, uint64_t stream, uint64_t ps) {
    HostOp op;
    op.kind = HostOp::Kind::Kernel, op.stream = uint32_t(stream), op.ps = ps, op.name = name;
    ops_.push_back(op);
}

HostStreams HostProgram::run(const HostLink& link) const {
    HostStreams s(link);
    for (const HostOp& op : ops_) s.issue(op);
    return s;
}

}  // namespace dcusim
