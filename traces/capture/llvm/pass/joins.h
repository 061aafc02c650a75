// Adjacent accesses that the backend joins into one wide instruction below
// the IR the pass sees: LLVM's load/store vectoriser in the code generator,
// and on NVIDIA ptxas, which knows where it placed shared and local objects.
// The pass records such a group once, as the wide access, without changing
// the code it instruments.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"

#include "target.h"

namespace dcucc {

struct Join {
    llvm::Instruction* leader = nullptr;  // where the wide access is recorded
    int64_t offset = 0;                   // of the group's lowest address from the leader's pointer
    uint64_t bytes = 0;                   // per lane, a power of two up to 16
};

// How a target's machine code places objects whose alignment the IR understates.
struct Placement {
    uint64_t shared_base = 0;  // alignment of the shared window's first object (0: as declared)
    uint64_t local_base = 0;   // alignment of the private frame's first object (0: as declared)
};
Placement placement_of(Gpu gpu);

class Joins {
public:
    Joins(llvm::Function& f, Gpu gpu, llvm::ScalarEvolution& se);

    // The group an access belongs to, if it belongs to one of two or more.
    const Join* find(const llvm::Instruction& i) const {
        auto it = member_.find(&i);
        return it == member_.end() ? nullptr : &joins_[it->second];
    }

private:
    uint64_t alignment(llvm::Instruction& i) const;
    void run_window(const std::vector<llvm::Instruction*>& accesses, bool loads);
    void add(const std::vector<llvm::Instruction*>& accesses, const std::vector<std::pair<int64_t, size_t>>& members,
             size_t from, size_t to, uint64_t bytes, bool loads);

    const llvm::DataLayout& dl_;
    llvm::ScalarEvolution& se_;
    std::map<const llvm::Value*, uint64_t> object_align_;  // placement of shared and local objects
    std::vector<Join> joins_;
    std::map<const llvm::Instruction*, size_t> member_;
};

}  // namespace dcucc
