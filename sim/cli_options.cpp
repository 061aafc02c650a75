#include "cli_options.h"

#include <cstdlib>
#include <functional>
#include <utility>

#include "size.h"

namespace dcusim::cli {

namespace {

// A value refused by one of the readers below. Boost adds which option it was as it rethrows;
// what() is ours, without Boost's placeholders, for `run`, which shows what() of any po::error.
class BadValue : public po::error_with_option_name {
public:
    explicit BadValue(std::string after_name) : po::error_with_option_name("bad value"), after(std::move(after_name)) {}
    const char* what() const noexcept override {
        text_ = get_option_name() + after;
        return text_.c_str();
    }
    std::string after;  // ": '0x' is not a number of jobs from 1 to 1024"

private:
    mutable std::string text_;
};

// A typed value whose word is read by `read`, which returns "" or what follows the option's name
// in the error.
template <class T>
class Strict : public po::typed_value<T> {
public:
    using Reader = std::function<std::string(const std::string&, T&)>;
    explicit Strict(Reader read) : po::typed_value<T>(nullptr), read_(std::move(read)) {}
    void xparse(boost::any& store, const std::vector<std::string>& tokens) const override {
        po::validators::check_first_occurrence(store);  // as Boost's own values: -j 1 -j 2 is refused
        T v{};
        const std::string why = read_(tokens.empty() ? std::string() : tokens.front(), v);
        if (!why.empty()) throw BadValue(why);
        store = v;
    }

private:
    Reader read_;
};

bool digits(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

// The option's name as the words spell it: --jobs if they do, else the short form where there is
// one (-j), as the usage writes it.
std::string shown(const po::options_description& opts, const std::vector<std::string>& words, const std::string& canonical) {
    const size_t start = canonical.find_first_not_of('-');
    const std::string name = start == std::string::npos ? "" : canonical.substr(start);
    // No name ("--=") would match every option without a short form: Boost throws "ambiguous".
    const po::option_description* d = name.empty() ? nullptr : opts.find_nothrow(name, false);
    if (!d) return canonical.empty() ? "an option" : "'" + canonical + "'";
    const std::string long_form = "--" + d->long_name();
    for (const std::string& w : words)
        if (w == long_form || w.rfind(long_form + "=", 0) == 0) return long_form;
    const std::string s = d->canonical_display_name(po::command_line_style::allow_dash_for_short);
    return s.rfind('-', 0) == 0 ? s : long_form;
}

std::string syntax_error(const std::string& name, const po::invalid_command_line_syntax& e) {
    switch (e.kind()) {
    case po::invalid_syntax::missing_parameter: return name + " needs a value";
    case po::invalid_syntax::empty_adjacent_parameter: return name + " needs a value after '='";
    case po::invalid_syntax::extra_parameter: return name + " takes no value";
    default: return name + ": malformed";
    }
}

// "" if `w` is a count from 1 to max (then in v), else what the error says after the option's name.
std::string read_count(const std::string& w, uint64_t max, uint64_t& v) {
    if (digits(w) && parse_size(w, v) && v >= 1 && v <= max) return "";
    return ": '" + w + "' is not a whole number from 1 to " + std::to_string(max);
}

}  // namespace

po::typed_value<uint64_t>* count(uint64_t max) {
    return new Strict<uint64_t>([max](const std::string& w, uint64_t& v) { return read_count(w, max, v); });
}

po::typed_value<unsigned>* count_unsigned(unsigned max) {
    return new Strict<unsigned>([max](const std::string& w, unsigned& v) {
        uint64_t x = 0;
        const std::string why = read_count(w, max, x);
        v = unsigned(x);
        return why;
    });
}

po::typed_value<uint64_t>* size() {
    return new Strict<uint64_t>([](const std::string& w, uint64_t& v) {
        if (parse_size(w, v) && v > 0) return std::string();
        return ": '" + w + "' is not a size (N, NK, NM or NG, above 0)";
    });
}

po::typed_value<uint64_t>* jobs() {
    return new Strict<uint64_t>([](const std::string& w, uint64_t& v) {
        // At most 4 digits: more than any host has cores, and no overflow to check.
        v = digits(w) && w.size() <= 4 ? std::stoul(w) : 0;
        if (v >= 1 && v <= 1024) return std::string();
        return ": '" + w + "' is not a number of jobs from 1 to 1024";
    });
}

po::typed_value<double>* percentage() {
    return new Strict<double>([](const std::string& w, double& v) {
        // Decimal only: strtod alone also takes " 5", "0x10", "inf" and "nan".
        char* end = nullptr;
        const bool decimal = !w.empty() && w.find_first_not_of("0123456789.eE+-") == std::string::npos;
        v = decimal ? std::strtod(w.c_str(), &end) : -1;
        if (decimal && *end == '\0' && v >= 0 && v <= 1e9) return std::string();
        return " takes a percentage, not '" + w + "'";
    });
}

int style() { return po::command_line_style::default_style & ~po::command_line_style::allow_guessing; }

std::string nameless_option(const std::vector<std::string>& words) {
    for (const std::string& w : words) {
        if (w == "--") break;
        if (w.rfind("--=", 0) == 0) return w;
    }
    return "";
}

std::string placeholder_in(const std::vector<std::string>& words) {
    for (const auto& w : words)
        for (size_t a = w.find('%'); a != std::string::npos; a = w.find('%', a + 1)) {
            const size_t b = w.find('%', a + 1);
            if (b == std::string::npos) break;
            const std::string inner = w.substr(a + 1, b - a - 1);
            if (!inner.empty() && inner.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos)
                return "'" + w + "' holds '%" + inner + "%', which dcusim's messages cannot show: rename it";
        }
    return "";
}

po::variables_map parse(const std::vector<std::string>& words, const po::options_description& opts,
                        const po::positional_options_description& pos) {
    const std::string nameless = nameless_option(words);
    if (!nameless.empty()) throw UsageError("unknown option '" + nameless + "'");
    po::variables_map vm;
    // The common errors get messages of our own, from names only; Boost's what() fills placeholders
    // in, so it is called only once no word holds one.
    try {
        po::store(po::command_line_parser(words).options(opts).positional(pos).style(style()).run(), vm);
        po::notify(vm);
    } catch (const BadValue& e) {
        throw UsageError(shown(opts, words, e.get_option_name()) + e.after);
    } catch (const po::unknown_option& e) {
        throw UsageError("unknown option '" + e.get_option_name() + "'");
    } catch (const po::invalid_command_line_syntax& e) {
        throw UsageError(syntax_error(shown(opts, words, e.get_option_name()), e));
    } catch (const po::multiple_occurrences& e) {
        throw UsageError(shown(opts, words, e.get_option_name()) + " given twice");
    } catch (const po::error& e) {
        const std::string why = placeholder_in(words);
        throw UsageError(why.empty() ? e.what() : why);
    }
    return vm;
}

}  // namespace dcusim::cli
