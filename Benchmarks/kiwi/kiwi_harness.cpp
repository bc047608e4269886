// kiwi, the C++ Cassowary behind kiwisolver, on the `layout-bench/1` workloads of
// Benchmarks/engine/workloads.py: the reference `layoutd-bench` is read beside.
// Prints one JSON line a workload in layoutd-bench's schema (engine "kiwi").
//
//   KIWI=$(Benchmarks/kiwi/build.sh); $KIWI --reps 5 /tmp/layoutd-workloads/drag_n1000.json
//
// How the workloads map onto kiwi:
// - Priorities become kiwi strengths by weight (1000 is required, p < 1000 weighs p): kiwi
//   has no strict priority levels. The workloads' solutions do not depend on the difference.
// - A constraint whose constant a phase sets holds that constant in an edit variable, moved
//   with suggestValue (kiwi's incremental path) at the strongest strength kiwi takes: weaker
//   edits let kiwi's answers drift from the expected ones, silently.
// - A step is its ops plus updateVariables (bringing every value up to date). layoutd's step
//   also includes collecting the changed variables, which its engine tracks; kiwi's are
//   found by a scan outside the timing.
// - Every run is checked against the workload's expected values (max_abs_err fields).
#include <kiwi/kiwi.h>
#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Definition {
    std::vector<std::pair<int, double>> terms;
    double constant;
    kiwi::RelationalOperator op;
    int priority;
};

struct Op {
    enum Kind { SetConstant, Remove, Add } kind;
    std::vector<int> constraints;
    double constant = 0;
};

struct Phase {
    std::string name;
    std::vector<std::vector<Op>> steps;
    std::vector<double> expected;
};

struct Workload {
    std::string id;
    size_t variables = 0;
    std::vector<int> viewOf;  // variable -> view
    size_t views = 0;
    std::vector<Definition> constraints;
    std::vector<double> expected;
    std::vector<Phase> phases;
};

Workload load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    json j = json::parse(in);
    if (j.at("format") != "layout-bench/1") throw std::runtime_error(path + " is not layout-bench/1");
    Workload w;
    w.id = j.at("id");
    w.variables = j.at("variables").size();
    w.viewOf.assign(w.variables, -1);
    for (auto& v : j.at("views")) {
        for (int var : v.at("vars")) w.viewOf[var] = static_cast<int>(w.views);
        ++w.views;
    }
    for (auto& c : j.at("constraints")) {
        Definition d;
        for (auto& t : c.at("terms")) d.terms.emplace_back(t[0].get<int>(), t[1].get<double>());
        d.constant = c.at("constant");
        std::string op = c.at("op");
        d.op = op == "==" ? kiwi::OP_EQ : op == "<=" ? kiwi::OP_LE : kiwi::OP_GE;
        d.priority = c.at("priority");
        w.constraints.push_back(std::move(d));
    }
    w.expected = j.at("expected").get<std::vector<double>>();
    for (auto& p : j.at("phases")) {
        Phase phase{p.at("name"), {}, p.at("expected_final").get<std::vector<double>>()};
        for (auto& step : p.at("steps")) {
            std::vector<Op> ops;
            for (auto& o : step) {
                std::string kind = o.at("op");
                if (kind == "set_constant") ops.push_back({Op::SetConstant, {o.at("constraint").get<int>()}, o.at("constant").get<double>()});
                else ops.push_back({kind == "remove" ? Op::Remove : Op::Add, o.at("constraints").get<std::vector<int>>()});
            }
            phase.steps.push_back(std::move(ops));
        }
        w.phases.push_back(std::move(phase));
    }
    return w;
}

double strength(int priority) {
    return priority >= 1000 ? kiwi::strength::required : kiwi::strength::create(0, 0, priority);
}

double micros(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double, std::micro>(b - a).count(); }

/// One build and replay of a workload in a fresh solver.
class Replay {
public:
    explicit Replay(const Workload& w) : w_(w), vars_(w.variables), edit_(w.constraints.size(), -1) {
        for (auto& p : w.phases)
            for (auto& step : p.steps)
                for (auto& op : step)
                    if (op.kind == Op::SetConstant && edit_[op.constraints[0]] < 0) {
                        edit_[op.constraints[0]] = static_cast<int>(edits_.size());
                        edits_.emplace_back();
                    }
        for (size_t i = 0; i < w.constraints.size(); ++i) made_.push_back(make(i));
    }

    /// Adds every constraint in order, then brings the values up to date; milliseconds.
    double build() {
        auto t0 = Clock::now();
        for (size_t i = 0; i < made_.size(); ++i) {
            if (int e = edit_[i]; e >= 0) {
                solver_.addEditVariable(edits_[e], 1e9);  // kiwi's strongest non-required strength
                solver_.suggestValue(edits_[e], w_.constraints[i].constant);
            }
            solver_.addConstraint(made_[i]);
        }
        solver_.updateVariables();
        double ms = micros(t0, Clock::now()) / 1e3;
        previous_.resize(vars_.size());
        for (size_t i = 0; i < vars_.size(); ++i) previous_[i] = vars_[i].value();
        return ms;
    }

    struct Step { double us, vars, views; };

    std::vector<Step> run(const Phase& p) {
        std::vector<Step> out;
        std::vector<kiwi::Constraint> fresh;
        for (auto& step : p.steps) {
            fresh.clear();  // made before the clock starts, as a client's objects would be
            for (auto& op : step)
                if (op.kind == Op::Add)
                    for (int c : op.constraints) fresh.push_back(make(c));
            auto t0 = Clock::now();
            size_t next = 0;
            for (auto& op : step) {
                switch (op.kind) {
                case Op::SetConstant: solver_.suggestValue(edits_[edit_[op.constraints[0]]], op.constant); break;
                case Op::Remove: for (int c : op.constraints) solver_.removeConstraint(made_[c]); break;
                case Op::Add:
                    for (int c : op.constraints) { made_[c] = fresh[next++]; solver_.addConstraint(made_[c]); }
                    break;
                }
            }
            solver_.updateVariables();
            double us = micros(t0, Clock::now());
            // kiwi keeps no record of what moved: finding it is a scan of every value, left out
            // of the step's time (it would grow with the document, not with the change).
            auto [vars, views] = changes();
            out.push_back({us, vars, views});
        }
        return out;
    }

    double error(const std::vector<double>& expected) const {
        double e = 0;
        for (size_t i = 0; i < vars_.size(); ++i) e = std::max(e, std::fabs(vars_[i].value() - expected[i]));
        return e;
    }

private:
    kiwi::Constraint make(size_t i) const {
        const Definition& d = w_.constraints[i];
        std::vector<kiwi::Term> terms;
        for (auto [v, c] : d.terms) terms.emplace_back(vars_[v], c);
        double constant = d.constant;
        if (edit_[i] >= 0) { terms.emplace_back(edits_[edit_[i]], 1.0); constant = 0; }
        return kiwi::Constraint(kiwi::Expression(std::move(terms), constant), d.op, strength(d.priority));
    }

    std::pair<double, double> changes() {
        size_t vars = 0, views = 0;
        std::vector<char> seen(w_.views, 0);
        for (size_t i = 0; i < vars_.size(); ++i) {
            double v = vars_[i].value();
            if (std::fabs(v - previous_[i]) > 1e-7 * std::max(1.0, std::fabs(previous_[i]))) {
                ++vars;
                if (int view = w_.viewOf[i]; view >= 0 && !seen[view]) { seen[view] = 1; ++views; }
            }
            previous_[i] = v;
        }
        return {double(vars), double(views)};
    }

    const Workload& w_;
    kiwi::Solver solver_;
    std::vector<kiwi::Variable> vars_;
    std::vector<int> edit_;  // constraint -> its edit variable, or -1
    std::vector<kiwi::Variable> edits_;
    std::vector<kiwi::Constraint> made_;
    std::vector<double> previous_;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Median, nearest-rank p99, mean, min, max (and total) of one repetition's values.
json stats(std::vector<double> v, bool total) {
    if (v.empty()) return json::object();
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    double sum = 0;
    for (double x : v) sum += x;
    size_t rank = static_cast<size_t>(std::ceil(0.99 * n));
    json s = {{"median", median(v)}, {"p99", v[std::min(n - 1, rank ? rank - 1 : 0)]},
              {"mean", sum / n}, {"min", v.front()}, {"max", v.back()}};
    if (total) s["total"] = sum;
    return s;
}

/// Each statistic's median over the repetitions.
json medianOf(const std::vector<json>& per) {
    json out = json::object();
    for (auto& [key, _] : per[0].items()) {
        std::vector<double> v;
        for (auto& s : per) v.push_back(s[key]);
        out[key] = median(v);
    }
    return out;
}

void bench(const std::string& path, int reps) {
    Workload w = load(path);
    std::vector<double> builds;
    double buildErr = 0;
    std::vector<std::vector<json>> steps(w.phases.size()), vars(w.phases.size()), views(w.phases.size());
    std::vector<double> finalErr(w.phases.size(), 0);
    for (int rep = 0; rep < reps; ++rep) {
        Replay r(w);
        builds.push_back(r.build());
        buildErr = std::max(buildErr, r.error(w.expected));
        std::fprintf(stderr, "[kiwi] %s rep %d: build %.2f ms", w.id.c_str(), rep + 1, builds.back());
        for (size_t i = 0; i < w.phases.size(); ++i) {
            auto s = r.run(w.phases[i]);
            std::vector<double> us, cv, cw;
            for (auto& x : s) { us.push_back(x.us); cv.push_back(x.vars); cw.push_back(x.views); }
            steps[i].push_back(stats(us, true));
            vars[i].push_back(stats(cv, false));
            views[i].push_back(stats(cw, false));
            finalErr[i] = std::max(finalErr[i], r.error(w.phases[i].expected));
            std::fprintf(stderr, ", %s median %.2f us", w.phases[i].name.c_str(), steps[i].back()["median"].get<double>());
        }
        std::fprintf(stderr, "\n");
    }
    json phases = json::array();
    for (size_t i = 0; i < w.phases.size(); ++i)
        phases.push_back({{"name", w.phases[i].name}, {"steps", w.phases[i].steps.size()}, {"step_us", medianOf(steps[i])},
                          {"changed_vars", medianOf(vars[i])}, {"changed_views", medianOf(views[i])},
                          {"final_max_abs_err", finalErr[i]}});
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    json line = {{"engine", "kiwi"}, {"workload", w.id}, {"reps", reps}, {"variables", w.variables},
                 {"constraints", w.constraints.size()},
                 {"build_ms", {{"median", median(builds)}, {"min", *std::min_element(builds.begin(), builds.end())}, {"all", builds}}},
                 {"build_max_abs_err", buildErr}, {"phases", phases}, {"peak_rss_mb", ru.ru_maxrss / 1024.0}};
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 5;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
        else if (a == "-h" || a == "--help") { std::printf("usage: kiwi_harness [--reps N] WORKLOAD.json...\n"); return 0; }
        else files.push_back(a);
    }
    if (files.empty()) { std::fprintf(stderr, "usage: kiwi_harness [--reps N] WORKLOAD.json...\n"); return 2; }
    try {
        for (auto& f : files) bench(f, reps);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kiwi_harness: %s\n", e.what());
        return 1;
    }
}
