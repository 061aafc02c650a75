// Boost.Program_options as every dcusim command line and dcusim-tracegen use it: numbers parsed
// strictly as whole words (sizes take K, M and G as the preset keys do, sim/size.h), no guessing of
// abbreviated options, and one-line errors that name the option the way the usage writes it (-j,
// --out). Kept apart from the simulator: dcusim-tracegen links this and the trace library only.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dcusim::cli {

namespace po = boost::program_options;

// A command line that cannot be parsed: one line naming the option or word, without the command.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Option values. Each refuses anything but the whole word it expects ("0x", "1.5", "-1", " 4"),
// with a message naming the option and the word.
po::typed_value<uint64_t>* count(uint64_t max);  // digits only, 1 to max
po::typed_value<unsigned>* count_unsigned(unsigned max);  // the same, for run's --top (an unsigned)
po::typed_value<uint64_t>* size();               // digits with K, M or G, above 0
po::typed_value<uint64_t>* jobs();               // -j: 1 to 1024 processes
po::typed_value<double>* percentage();           // a decimal number from 0 to 1e9

// The style of every command line: Boost's default without guessing (--jo for --jobs).
int style();

// Parses `words` (no program or command name) against `opts`; words that are no option go to `pos`.
// Throws UsageError.
po::variables_map parse(const std::vector<std::string>& words, const po::options_description& opts,
                        const po::positional_options_description& pos);

// "" or the first word before any "--" that is an option without a name ("--=x"): Boost gives its
// value to whichever option matches the empty name (fuzz_cli found it: a trace named x).
std::string nameless_option(const std::vector<std::string>& words);

// "" or why `words` cannot go into Boost's own messages: a word holding a placeholder such as
// %value% made them fill it in for ever (found by fuzz_cli: `run --top %value%`).
std::string placeholder_in(const std::vector<std::string>& words);

}  // namespace dcusim::cli
