/* SPDX-License-Identifier: MIT */
/* contensou: bifurcation and chaos analysis of mechanical systems with dry
 * friction (Coulomb–Contensou). The whole public API; every name has the cs_
 * prefix, every function returns an enum cs_status (cs_strerror) or says in
 * its comment how it reports failure, and the library never prints, exits or
 * aborts. Build with the CMake package (find_package(contensou), target
 * contensou::contensou) or pkg-config (pkg-config --cflags --libs contensou).
 *
 * The headers it gathers, each using only the ones above it in this list
 * (the library's own *_private.h headers are not installed, and what they
 * declare is not exported):
 *   core/status.h          status codes, their messages, the error channel
 *   core/ode.h             the callbacks of an ODE (right-hand side, Jacobian)
 *   friction/friction.h    the friction laws: integral model, I(0,0), I(1,1),
 *                          regularization, eta <-> eta', yield measure, fits
 *   friction/defaults.h    the laws' default (b, m) and the papers' pairs
 *   friction/law_table.h   a law by name and parameters at a velocity or over
 *                          a (v, w) grid
 *   models/model.h         mechanical models: descriptors, parameters by name
 *   integrate/integrate.h  ODE integration (SUNDIALS ARKODE behind it)
 *   integrate/flow.h       the statistics and mode switches of a model's run
 *   integrate/record.h     a run recorded on a time grid (simulate, eps study)
 *   io/config.h            parameter files (INI) with strict validation
 *   io/result.h            any result file read back: header, tables, attributes
 *   io/trajectory_h5.h     the trajectory file: a run written (cs_simulate_run)
 *                          and read back
 *   io/fit_h5.h            the friction fit's file, read back
 *   analysis/point.h       one parameter point: sections, class, period,
 *                          Lyapunov exponents, stick-slip statistics
 *   analysis/equilibrium.h equilibria and their stability
 *   analysis/lyapunov.h    Lyapunov exponents (Benettin, QR) of a model run
 *   analysis/orbit.h       periodic orbits by shooting, Floquet multipliers
 *   analysis/continuation.h   branches of equilibria and cycles
 *   analysis/continuation2.h  two-parameter curves and their codim-2 points
 *   analysis/continuation_config.h  a parameter file's [continuation] keys
 *   analysis/orbit_h5.h    orbit and continuation runs from a parameter file
 *                          (cs_orbit_run, cs_continue_run), their files read back
 *   analysis/eps.h         the eps study of one trajectory against a reference
 *   analysis/basins.h      basins of attraction: attractors told apart, their
 *                          fractions, followed along a parameter
 *   analysis/basins_h5.h   the basins file
 *   sweep/sweep.h          parameter sweeps over threads (and processes)
 *   sweep/sweep_h5.h       the sweep's result file, read back
 *   sweep/sweep_dist.h     a sweep over MPI processes, in a program of its own
 *                          or on a host program's communicator
 *   study/eps_sweep.h      the eps study over a sweep
 *   study/eps_h5.h         the eps-study file, read back
 *   results/read.h         any result file read by its kind (cs_read_result)
 * tests/cli/layers.sh checks the order (core < friction < models < integrate
 * < io < analysis < sweep < study < results < plot < cli) on every include.
 *
 * Errors: one channel. A function that fails returns its enum cs_status and
 * records a one-line reason in a per-thread buffer, read with cs_errmsg()
 * (core/status.h), e.g. "run.ini:5: zeta: -7 is out of range (accepted: ...)" or "no such
 * file 'x.h5'". The message is meaningful only right after a failure, in the
 * thread that saw it: a success does not clear it (cs_error_clear() does),
 * so read it when a status said so. No public function takes a message
 * buffer. Per-point failures of a sweep (a point's class FAILED and its
 * message in the results), a continuation's end note and an orbit's note are
 * results, not this channel. (The integrator's workspace also keeps its
 * last message, cs_integrator_last_error(); the functions built on it carry
 * it into cs_errmsg().)
 *
 * Parameters in code (no file):
 *   const struct cs_model *m = cs_model_find("oscillator");
 *   void *p = malloc(m->params_size);
 *   cs_model_params_default(m, p);                 // every default
 *   cs_model_set_param(m, p, "w", 2.0);            // by name, range-checked
 *   cs_model_set_choice(m, p, "law", "...");       // choices (models that have them)
 *   double y0[2] = {0};                            // m->n_state values, or
 *   y0[cs_model_state_index(m, "x")] = 1.0;        // m->state_default
 *   struct cs_sweep_spec spec;
 *   cs_sweep_spec_init(m, "w", 1.0, 3.0, 3, &spec); // the file's defaults
 *   spec.point.solver.rtol = 1e-10;                // solver options
 *   cs_sweep_run(m, p, y0, &spec, sink, ctx, &out); // sink: once per point
 * Each call returns a status and leaves its reason in cs_errmsg() on failure.
 * A sweep prepares its parameters at every point: pass them unprepared. A
 * single run (cs_record_run, cs_trajectory_record) needs them prepared
 * first (m->prepare(p)). tests/cli/install/consumer.c does this against
 * the installed package, and tests/examples/ holds more example programs
 * (installed under share/doc/contensou/examples/). A parameter file's text can also be loaded
 * without a file on disk (cs_config_load_text).
 *
 * A comment that says "see point.c" (or another .c file) names the source
 * file, in the source distribution, whose top comment derives the algorithm
 * and its tolerances; the documentation (src/README.md and the pages it
 * links, installed under share/doc/contensou/) explains the same in prose.
 */
#ifndef CONTENSOU_H
#define CONTENSOU_H

#include "cs_version.h"
#include "core/status.h"
#include "core/ode.h"
#include "friction/friction.h"
#include "friction/defaults.h"
#include "friction/law_table.h"
#include "models/model.h"
#include "integrate/integrate.h"
#include "integrate/flow.h"
#include "integrate/record.h"
#include "io/config.h"
#include "io/result.h"
#include "io/trajectory_h5.h"
#include "io/fit_h5.h"
#include "analysis/point.h"
#include "analysis/equilibrium.h"
#include "analysis/lyapunov.h"
#include "analysis/orbit.h"
#include "analysis/continuation.h"
#include "analysis/continuation2.h"
#include "analysis/continuation_config.h"
#include "analysis/orbit_h5.h"
#include "analysis/eps.h"
#include "analysis/basins.h"
#include "analysis/basins_h5.h"
#include "sweep/sweep.h"
#include "sweep/sweep_h5.h"
#include "sweep/sweep_dist.h"
#include "study/eps_sweep.h"
#include "study/eps_h5.h"
#include "results/read.h"

#endif
