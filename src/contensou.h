/* SPDX-License-Identifier: MIT */
/* contensou: bifurcation and chaos analysis of mechanical systems with dry
 * friction (Coulomb–Contensou). The whole public API; every name has the cs_
 * prefix, every function returns an enum cs_status (cs_strerror) or says in
 * its comment how it reports failure, and the library never prints, exits or
 * aborts. Build with the CMake package (find_package(contensou), target
 * contensou::contensou) or pkg-config (pkg-config --cflags --libs contensou).
 *
 * Layers, each using only the ones above it in this list:
 *   core/status.h          status codes and their messages
 *   friction/friction.h    the friction laws: integral model, I(0,0), I(1,1),
 *                          regularization, eta <-> eta', yield measure, fits
 *   integrate/integrate.h  ODE integration (SUNDIALS ARKODE behind it)
 *   models/model.h         mechanical models: descriptors, parameters by name
 *   integrate/flow.h       a model run through its modes (event-driven laws)
 *   integrate/record.h     a run recorded on a time grid (simulate, eps study)
 *   io/h5.h                HDF5 result files written safely, and read back
 *   io/config.h            parameter files (INI) with strict validation
 *   io/run_h5.h            the header every result file of a run starts with
 *   io/trajectory_h5.h     the trajectory file (contensou simulate)
 *   analysis/point.h       one parameter point: sections, class, period,
 *                          Lyapunov exponents, stick-slip statistics
 *   analysis/equilibrium.h equilibria and their stability
 *   analysis/orbit.h       periodic orbits by shooting, Floquet multipliers
 *   analysis/continuation.h  branches of equilibria and cycles
 *   analysis/eps.h         the eps study of one trajectory against a reference
 *   sweep/sweep.h          parameter sweeps over threads (and processes)
 *   sweep/sweep_h5.h       the sweep's result file
 *   study/eps_sweep.h      studies that run sweeps: the eps study over a sweep
 *   study/eps_h5.h         the eps-study file (either study)
 *   results/read.h         every kind of result file read back into structs
 *   plot/plot_data.h       what the pictures of result files are made of
 * tests/cli/layers.sh checks the order (core < friction < integrate/models <
 * io < analysis < sweep < study < results < plot < cli) on every include.
 */
#ifndef CONTENSOU_H
#define CONTENSOU_H

#include "cs_version.h"
#include "core/status.h"
#include "friction/friction.h"
#include "integrate/integrate.h"
#include "models/model.h"
#include "integrate/flow.h"
#include "integrate/record.h"
#include "io/h5.h"
#include "io/config.h"
#include "io/run_h5.h"
#include "io/trajectory_h5.h"
#include "analysis/point.h"
#include "analysis/equilibrium.h"
#include "analysis/lyapunov.h"
#include "analysis/orbit.h"
#include "analysis/continuation.h"
#include "analysis/eps.h"
#include "sweep/sweep.h"
#include "sweep/sweep_h5.h"
#include "sweep/sweep_dist.h"
#include "study/eps_sweep.h"
#include "study/eps_h5.h"
#include "results/read.h"
#include "plot/plot_data.h"

#endif
