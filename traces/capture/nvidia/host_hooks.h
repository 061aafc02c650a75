// dcutrace's Sanitizer callbacks for the program's host side: they turn the runtime and driver API
// calls, the memcpy, synchronize and events domains and the resource domain's host allocations into
// HostCalls (host_calls.h), which writes the trace's host statements. Built only with the tool.
#pragma once

#include <sanitizer.h>

#include <cstdio>
#include <memory>

#include "host_calls.h"

namespace dcutrace {

uint64_t now_ns();

class HostHooks {
public:
    // `log`: one line per host call seen (DCUTRACE_HOST_LOG), or null.
    HostHooks(HostCalls::Emit emit, std::FILE* log);
    ~HostHooks();
    // The domains these hooks read, besides the resource and launch domains the tool enables itself.
    static void enable(Sanitizer_SubscriberHandle sub);

    void on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const Sanitizer_CallbackData& cb);
    void on_memcpy(const Sanitizer_MemcpyData& m);
    void on_sync(Sanitizer_CallbackId cbid, const Sanitizer_SynchronizeData& s);
    void on_event(Sanitizer_CallbackId cbid, const Sanitizer_EventData& e);
    void on_host_memory(Sanitizer_CallbackId cbid, const Sanitizer_ResourceMemoryData& m);
    // A launch: the host time before it is written; returns the kernel's stream.
    uint64_t on_launch(CUstream stream);

    // Time the tool or the driver spends outside the program's API calls, bracketed like a call.
    void enter() { calls_.api_enter(now_ns()); }
    void exit() { calls_.api_exit(now_ns()); }

    const HostCallCounts& counts() const { return calls_.counts(); }

private:
    void runtime_exit(Sanitizer_CallbackId cbid, const void* params);
    void driver_exit(Sanitizer_CallbackId cbid, const void* params);
    void allocated(const char* api, void* base, size_t bytes, HostMemKind kind, bool mapped, unsigned flags);
    void stream_created(void* handle);

    HostCalls calls_;
    std::FILE* log_;
    int runtime_depth_ = 0;  // driver calls the runtime makes for a runtime call are not the program's
};

}  // namespace dcutrace
