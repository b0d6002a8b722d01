/* SPDX-License-Identifier: MIT */
/* contensou friction eta|eval|fit: the friction laws of src/friction/README.md
 * from the command line. Every quantity is dimensionless (friction.h): forces in units
 * of mu N, moments in units of mu N a, lengths in units of the contact size a. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "friction/defaults.h"
#include "friction/friction.h"
#include "friction/law_table.h"
#include "io/fit_h5.h"
#include "friction/friction_private.h"
#include "friction/law_table_private.h"
#include "io/fit_h5_private.h"

/* ------------------------------------------------------------------- eta */

static const char eta_help[] =
    "usage: contensou friction eta --eta H\n"
    "       contensou friction eta --eta-prime H'\n"
    "\n"
    "Converts between the static-to-kinetic friction ratio eta and the parameter\n"
    "eta' of the regularized laws: eta = max_u g(u) with\n"
    "g(u) = u/sqrt(u^2+1) + eta' u/(u^2+1)^2. Both are dimensionless. The laws are\n"
    "written out in src/friction/README.md (in the source, and under\n"
    "share/doc/contensou/ where contensou is installed).\n"
    "\n"
    "options:\n"
    "  --eta H         static/kinetic friction ratio, dimensionless, in [1, 1e300];\n"
    "                  prints eta_prime (eta = 1 gives eta' = 0: no peak)\n"
    "  --eta-prime H'  regularization parameter eta', dimensionless, in [0, 1e301];\n"
    "                  prints eta\n"
    "  -h, --help      this text\n"
    "\n"
    "output (name = value):\n"
    "  eta_prime or eta      the converted value\n"
    "  u_max                 maximizer of g, dimensionless (u = lambda/eps for p = 1,\n"
    "                        (lambda/eps)^3 for p = 3); inf when eta = 1\n"
    "  eta_prime_cubic_fit   the papers' cubic fit eta'(eta), only for eta in [1, 2.7]\n"
    "  eta_prime_critical    the largest eta' that still gives eta = 1\n"
    "\n"
    "exit status: 0 success; 1 the root finder failed (not expected for accepted\n"
    "values); 2 bad arguments (both or neither of --eta and --eta-prime, a value\n"
    "out of range), with a one-line message.\n";

static int friction_eta(int argc, char **argv)
{
  const char *cmd = "contensou friction eta";
  struct cli_opt opts[] = {
      {.name = "--eta", .kind = CLI_NUMBER, .range = CLI_IN(1.0, CS_ETA_MAX)},
      {.name = "--eta-prime", .kind = CLI_NUMBER, .range = CLI_IN(0.0, CS_ETA_PRIME_MAX)},
      {0},
  };
  struct cli_opt *o_eta = cli_opt(opts, "--eta");
  struct cli_opt *o_eta_prime = cli_opt(opts, "--eta-prime");
  int npos, st = cli_parse(cmd, argc, argv, opts, NULL, 0, &npos);
  double eta, eta_prime, u_max, fit;
  enum cs_status cs;
  if (st == CLI_HELP) {
    fputs(eta_help, stdout);
    return CLI_EXIT_OK;
  }
  if (st != 0)
    return st;
  if (o_eta->value && o_eta_prime->value)
    return cli_usage(cmd, "--eta and --eta-prime exclude each other: give one");
  if (!o_eta->value && !o_eta_prime->value)
    return cli_usage(cmd, "missing --eta H (a number >= 1) or --eta-prime H' (a number >= 0)");
  if (o_eta->value) {
    eta = o_eta->num[0];
    cs = cs_eta_prime_from_eta(eta, &eta_prime);
    if (cs != CS_OK)
      return cli_fail(cmd, "eta' for eta = %g: %s", eta, cs_strerror(cs));
    cli_print_digits("eta_prime", eta_prime, 12);
  } else {
    eta_prime = o_eta_prime->num[0];
  }
  cs = cs_eta_from_eta_prime(eta_prime, &eta, &u_max);
  if (cs != CS_OK)
    return cli_fail(cmd, "eta for eta' = %g: %s", eta_prime, cs_strerror(cs));
  if (o_eta_prime->value)
    cli_print_digits("eta", eta, 12);
  else
    eta = o_eta->num[0]; /* report the fit at the eta asked for */
  cli_print_digits("u_max", u_max, 12);
  if (cs_eta_prime_cubic_fit(eta, &fit) == CS_OK)
    cli_print_digits("eta_prime_cubic_fit", fit, 12);
  cli_print_digits("eta_prime_critical", cs_eta_prime_critical(), 12);
  return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ contacts */

enum contact_kind { CONTACT_DISK, CONTACT_DISK_HERTZ, CONTACT_ELLIPSE };
static const char *const contact_names[] = {"disk", "disk-hertz", "ellipse", NULL};
static const char *const pressure_names[] = {"uniform", "hertz", NULL};

static struct cs_contact make_contact(enum contact_kind kind, const double axes[2],
                                      enum cs_pressure_kind pressure)
{
  switch (kind) {
  case CONTACT_DISK_HERTZ:
    return cs_contact_disk(CS_PRESSURE_HERTZ);
  case CONTACT_ELLIPSE:
    return cs_contact_ellipse(axes[0], axes[1], pressure);
  case CONTACT_DISK:
    break;
  }
  return cs_contact_disk(CS_PRESSURE_UNIFORM);
}

/* ------------------------------------------------------------------ eval */

/* printf format: the defaults (b, m) of I00 and I11, then eps. */
static const char eval_help[] =
    "usage: contensou friction eval --law LAW [--contact C] [--vsx V] [--vsy V] [--ws W]\n"
    "           [--b B] [--m M] [--eps E] [--eta H | --eta-prime H'] [--semi-axes A,B]\n"
    "           [--pressure P]\n"
    "\n"
    "Friction load (Tsx, Tsy, Ms) of a plane contact in sliding (the laws are\n"
    "written out in src/friction/README.md, in the source and under\n"
    "share/doc/contensou/ where contensou is installed). All quantities are\n"
    "dimensionless: lengths in units of the contact size a, forces in units of\n"
    "mu N, moments in units of mu N a; the velocities share any one time unit.\n"
    "\n"
    "options:\n"
    "  --law LAW        integral (exact Coulomb-Contensou model), I00, I11 (the\n"
    "                   approximations), I00-reg, I11-reg (regularized, with static\n"
    "                   friction); required\n"
    "  --contact C      disk (uniform pressure on the unit disk, default), disk-hertz\n"
    "                   (Hertz pressure on the unit disk), ellipse; I11 and I11-reg:\n"
    "                   disk only (their closed form is the uniform disk's)\n"
    "  --vsx V          sliding velocity of the contact centre along x, in contact\n"
    "                   sizes per time unit (default 0)\n"
    "  --vsy V          same along y (default 0)\n"
    "  --ws W           spin: angular velocity about the normal, rad per time unit\n"
    "                   (default 0)\n"
    "  --b B            shape parameter b of the approximation, dimensionless, > 0\n"
    "                   (default I00: %.7g, I11: %.7g)\n"
    "  --m M            exponent m of the approximation, dimensionless, > 0\n"
    "                   (default I00: %.7g, I11: %.7g)\n"
    "  --eps E          smoothing parameter epsilon of the -reg laws, in the units of\n"
    "                   the velocities, > 0 (default %g)\n"
    "  --eta H          static/kinetic friction ratio of the -reg laws, dimensionless,\n"
    "                   in [1, 1e300] (default 1: no static peak); converted to eta'\n"
    "  --eta-prime H'   regularization parameter eta' directly, dimensionless,\n"
    "                   in [0, 1e301]\n"
    "  --semi-axes A,B  semi-axes of the ellipse along x and y, in units of a, > 0\n"
    "                   (--contact ellipse only; default 1,0.5)\n"
    "  --pressure P     uniform (default) or hertz (--contact ellipse only)\n"
    "  -h, --help       this text\n"
    "\n"
    "--b and --m apply to the approximations only, --eps, --eta and --eta-prime to\n"
    "the -reg laws only: given to another law they are refused. I11 and I11-reg are\n"
    "the uniform disk's closed form (--contact disk). For I00 on a contact other\n"
    "than the uniform disk the moments c_{i,j,k} are computed by quadrature.\n"
    "\n"
    "output (name = value): Tsx, Tsy, Ms (dimensionless), then the parameters used:\n"
    "b, m for the approximations, eps and eta_prime for the regularized laws.\n"
    "\n"
    "exit status: 0 success; 1 the quadrature of the integral model or the moments\n"
    "of the contact failed; 2 bad arguments (unknown law, an option that does not\n"
    "apply to the contact, a value out of range), with a one-line message.\n";

static int friction_eval(int argc, char **argv)
{
  const char *cmd = "contensou friction eval";
  const char *laws[CS_LAW_COUNT + 1];
  struct cli_opt opts[] = {
      {.name = "--law", .kind = CLI_CHOICE, .choices = laws, .required = 1},
      {.name = "--contact", .kind = CLI_CHOICE, .choices = contact_names},
      {.name = "--vsx", .kind = CLI_NUMBER, .range = CLI_ANY},
      {.name = "--vsy", .kind = CLI_NUMBER, .range = CLI_ANY},
      {.name = "--ws", .kind = CLI_NUMBER, .range = CLI_ANY},
      {.name = "--b", .kind = CLI_NUMBER, .range = CLI_GT(0.0)},
      {.name = "--m", .kind = CLI_NUMBER, .range = CLI_GT(0.0)},
      {.name = "--eps", .kind = CLI_NUMBER, .range = CLI_GT(0.0)},
      {.name = "--eta", .kind = CLI_NUMBER, .range = CLI_IN(1.0, CS_ETA_MAX)},
      {.name = "--eta-prime", .kind = CLI_NUMBER, .range = CLI_IN(0.0, CS_ETA_PRIME_MAX)},
      {.name = "--semi-axes", .kind = CLI_PAIR, .range = CLI_GT(0.0)},
      {.name = "--pressure", .kind = CLI_CHOICE, .choices = pressure_names},
      {0},
  };
  struct cli_opt *o_law = cli_opt(opts, "--law");
  struct cli_opt *o_contact = cli_opt(opts, "--contact");
  struct cli_opt *o_vsx = cli_opt(opts, "--vsx");
  struct cli_opt *o_vsy = cli_opt(opts, "--vsy");
  struct cli_opt *o_ws = cli_opt(opts, "--ws");
  struct cli_opt *o_b = cli_opt(opts, "--b");
  struct cli_opt *o_m = cli_opt(opts, "--m");
  struct cli_opt *o_eps = cli_opt(opts, "--eps");
  struct cli_opt *o_eta = cli_opt(opts, "--eta");
  struct cli_opt *o_eta_prime = cli_opt(opts, "--eta-prime");
  struct cli_opt *o_axes = cli_opt(opts, "--semi-axes");
  struct cli_opt *o_pressure = cli_opt(opts, "--pressure");
  enum contact_kind kind;
  enum cs_law law;
  struct cs_contact contact;
  struct cs_law_eval *e = NULL;
  struct cs_friction_load load;
  double axes[2] = {1.0, 0.5}, vsx, vsy, w;
  enum cs_status cs = CS_OK;
  int npos, st;
  for (int i = 0; i < CS_LAW_COUNT; i++)
    laws[i] = cs_law_name((enum cs_law)i);
  laws[CS_LAW_COUNT] = NULL;
  st = cli_parse(cmd, argc, argv, opts, NULL, 0, &npos);
  if (st == CLI_HELP) {
    printf(eval_help, CS_I00_B_DEFAULT, CS_I11_B_DEFAULT, CS_I00_M_DEFAULT, CS_I11_M_DEFAULT,
           CS_EPS_DEFAULT);
    return CLI_EXIT_OK;
  }
  if (st != 0)
    return st;
  if (cs_law_from_name(laws[o_law->choice], &law) != CS_OK)
    return cli_usage(cmd, "--law: unknown law '%s'", o_law->value);
  kind = o_contact->value ? (enum contact_kind)o_contact->choice : CONTACT_DISK;
  if (kind != CONTACT_ELLIPSE && o_axes->value)
    return cli_usage(cmd, "--semi-axes: only with --contact ellipse");
  if (kind != CONTACT_ELLIPSE && o_pressure->value)
    return cli_usage(cmd, "--pressure: only with --contact ellipse");
  if (o_eta->value && o_eta_prime->value)
    return cli_usage(cmd, "--eta and --eta-prime exclude each other: give one");
  /* an option the law does not use is a mistake, not a no-op */
  int reg = law == CS_LAW_I00_REG || law == CS_LAW_I11_REG;
  const struct cli_opt *reg_opts[] = {o_eps, o_eta, o_eta_prime}, *shape_opts[] = {o_b, o_m};
  for (size_t i = 0; i < 3; i++)
    if (reg_opts[i]->value && !reg)
      return cli_usage(cmd,
                       "%s: only with a regularized law (accepted: I00-reg, I11-reg; %s has none)",
                       reg_opts[i]->name, cs_law_name(law));
  for (size_t i = 0; i < 2; i++)
    if (shape_opts[i]->value && law == CS_LAW_INTEGRAL)
      return cli_usage(cmd,
                       "%s: only with an approximation (accepted: I00, I11 and their -reg forms)",
                       shape_opts[i]->name);
  if (o_axes->value) {
    axes[0] = o_axes->num[0];
    axes[1] = o_axes->num[1];
  }
  contact = make_contact(kind, axes,
                         o_pressure->value && o_pressure->choice == 1 ? CS_PRESSURE_HERTZ
                                                                      : CS_PRESSURE_UNIFORM);
  vsx = o_vsx->value ? o_vsx->num[0] : 0.0;
  vsy = o_vsy->value ? o_vsy->num[0] : 0.0;
  w = o_ws->value ? o_ws->num[0] : 0.0;

  struct cs_law_params lp = cs_law_params_default(law);
  if (o_b->value)
    lp.b = o_b->num[0];
  if (o_m->value)
    lp.m = o_m->num[0];
  if (o_eps->value)
    lp.eps = o_eps->num[0];
  if (o_eta_prime->value)
    lp.eta_prime = o_eta_prime->num[0];
  else if (o_eta->value && (cs = cs_eta_prime_from_eta(o_eta->num[0], &lp.eta_prime)))
    return cli_fail(cmd, "%s", cs_strerror(cs));
  /* the library says which laws apply to which contacts */
  if ((cs = cs_law_eval_create(&lp, &contact, &e)) == CS_ERR_ARG)
    return cli_usage(cmd, "--contact %s: %s", contact_names[kind], cs_errmsg());
  if (cs == CS_OK)
    cs = cs_law_eval_at(e, vsx, vsy, w, &load);
  cs_law_eval_free(e);
  if (cs != CS_OK)
    return cli_report(cmd, cs);
  cli_print("Tsx", load.Tsx);
  cli_print("Tsy", load.Tsy);
  cli_print("Ms", load.Ms);
  if (law != CS_LAW_INTEGRAL) {
    cli_print("b", lp.b);
    cli_print("m", lp.m);
    if (law == CS_LAW_I00_REG || law == CS_LAW_I11_REG) {
      cli_print("eps", lp.eps);
      cli_print("eta_prime", lp.eta_prime);
    }
  }
  return CLI_EXIT_OK;
}

/* ------------------------------------------------------------------- fit */

/* printf format: the papers' pairs of I00, I11 (§2) and I11 (§4). */
static const char fit_help[] =
    "usage: contensou friction fit --law I00|I11 [--contact disk|disk-hertz]\n"
    "                              [--points N] [--b0 B --m0 M] [-o FILE.h5]\n"
    "\n"
    "Least-squares fit of the parameters (b, m) of an approximation to the integral\n"
    "model over theta_s in [0, pi/2] rad, phi_s = 0, residuals of Tsx and Ms\n"
    "together (Acta Mech. 2016 sec. 2, Fig. 2). All quantities are dimensionless.\n"
    "\n"
    "options:\n"
    "  --law L       I00 or I11; required\n"
    "  --contact C   disk (uniform pressure, default) or disk-hertz (Hertz pressure;\n"
    "                I00 only: I11's closed form is the uniform disk's)\n"
    "  --points N    number of uniform nodes in theta_s, an integer in [3, 100000]\n"
    "                (default 181)\n"
    "  --b0 B        starting value of b, dimensionless, > 0 (default: the paper's)\n"
    "  --m0 M        starting value of m, dimensionless, > 0 (default: the paper's)\n"
    "  -o FILE.h5    also write the curves of Fig. 2 (361 nodes) to an HDF5 file:\n"
    "                /fit/curves, columns theta [rad], Tsx_integral, Ms_integral,\n"
    "                Tsx_fit, Ms_fit, Tsx_paper, Ms_paper (and Tsx_paper4, Ms_paper4\n"
    "                for I11), all dimensionless; draw it with contensou plot FILE.h5\n"
    "                (written as FILE.h5.partial, renamed when complete; an existing\n"
    "                file that is not HDF5 is not overwritten: exit 2)\n"
    "  -h, --help    this text\n"
    "\n"
    "A fine grid (--points 100000: a few seconds) shows a progress line on stderr\n"
    "when stderr is a terminal.\n"
    "\n"
    "output (name = value, all dimensionless): b, m, rms, max_error (of the fit),\n"
    "iterations, then the same errors for the paper's pair on the same nodes:\n"
    "paper_b, paper_m, paper_rms, paper_max_error (I00: b = %g, m = %g;\n"
    "I11: b = %g, m = %g from sec. 2) and, for I11, paper4_b, paper4_m,\n"
    "paper4_rms, paper4_max_error (sec. 4's pair b = %g, m = %g: sec. 2's printed\n"
    "pair with b and m exchanged, and the fit rounded; sec. 2's is the misprint).\n"
    "\n"
    "exit status: 0 success; 1 the least-squares fit or the integral model failed,\n"
    "or FILE.h5 could not be written; 2 bad arguments (including an existing -o file\n"
    "that is not HDF5), with a one-line message.\n";

/* The fit's progress line: the integral model on the nodes, once for the
 * fit and once for each paper's pair. */
struct fit_progress {
  struct cli_progress line;
  size_t base; /* nodes of the runs before this one */
};

static void fit_progress(void *ctx, size_t done, size_t total)
{
  struct fit_progress *p = ctx;
  (void)total;
  cli_progress_update(&p->line, (double)(p->base + done));
}

static int friction_fit(const struct cli_ctx *ctx, int argc, char **argv)
{
  const char *cmd = "contensou friction fit";
  static const char *const laws[] = {"I00", "I11", NULL};
  static const char *const contacts[] = {"disk", "disk-hertz", NULL};
  struct cli_opt opts[] = {
      {.name = "--law", .kind = CLI_CHOICE, .choices = laws, .required = 1},
      {.name = "--contact", .kind = CLI_CHOICE, .choices = contacts},
      {.name = "--points", .kind = CLI_COUNT, .range = CLI_IN(3, 100000)},
      {.name = "--b0", .kind = CLI_NUMBER, .range = CLI_GT(0.0)},
      {.name = "--m0", .kind = CLI_NUMBER, .range = CLI_GT(0.0)},
      {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      {0},
  };
  struct cli_opt *o_law = cli_opt(opts, "--law");
  struct cli_opt *o_contact = cli_opt(opts, "--contact");
  struct cli_opt *o_points = cli_opt(opts, "--points");
  struct cli_opt *o_b0 = cli_opt(opts, "--b0");
  struct cli_opt *o_m0 = cli_opt(opts, "--m0");
  struct cli_opt *o_out = cli_opt(opts, "--output");
  struct cs_fit_report r;
  size_t npoints;
  enum cs_law law;
  enum contact_kind kind;
  struct cs_contact contact;
  enum cs_status cs;
  int npos, st = cli_parse(cmd, argc, argv, opts, NULL, 0, &npos);
  if (st == CLI_HELP) {
    printf(fit_help, CS_I00_B_PAPER, CS_I00_M_PAPER, CS_I11_B_PAPER, CS_I11_M_PAPER,
           CS_I11_B_PAPER4, CS_I11_M_PAPER4);
    return CLI_EXIT_OK;
  }
  if (st != 0)
    return st;
  law = o_law->choice == 0 ? CS_LAW_I00 : CS_LAW_I11;
  kind = o_contact->value && o_contact->choice == 1 ? CONTACT_DISK_HERTZ : CONTACT_DISK;
  contact = make_contact(kind, NULL, CS_PRESSURE_UNIFORM);
  npoints = o_points->value ? (size_t)o_points->count : 181;
  if (o_out->value && (st = cli_check_result_path(cmd, o_out->value, NULL)) != 0)
    return st;
  size_t npairs = law == CS_LAW_I00 ? 1 : 2;
  struct fit_progress prog = {.base = 0};
  cli_progress_start(&prog.line, cmd, CLI_PROGRESS_COUNT, "nodes", 0,
                     (double)(npoints * (1 + npairs)), 0);
  cs = cs_friction_fit_report(law, &contact, npoints, o_b0->value ? o_b0->num[0] : NAN,
                              o_m0->value ? o_m0->num[0] : NAN, fit_progress, &prog, &r);
  cli_progress_end(&prog.line);
  if (cs != CS_OK) /* CS_ERR_ARG: a law that does not apply to the contact (exit 2) */
    return cli_report(cmd, cs);
  cli_print("b", r.result.b);
  cli_print("m", r.result.m);
  cli_print("rms", r.result.rms);
  cli_print("max_error", r.result.max_error);
  printf("iterations = %d\n", r.result.iterations);
  for (size_t p = 0; p < r.npairs; p++) {
    char name[32];
    snprintf(name, sizeof name, "%s_b", r.pairs[p].prefix);
    cli_print(name, r.pairs[p].b);
    snprintf(name, sizeof name, "%s_m", r.pairs[p].prefix);
    cli_print(name, r.pairs[p].m);
    snprintf(name, sizeof name, "%s_rms", r.pairs[p].prefix);
    cli_print(name, r.pairs[p].rms);
    snprintf(name, sizeof name, "%s_max_error", r.pairs[p].prefix);
    cli_print(name, r.pairs[p].max_error);
  }
  if (o_out->value) {
    cs = cs_fit_h5_write(o_out->value, &r, contact_names[kind], ctx->argc, ctx->argv);
    if (cs != CS_OK)
      return cli_fail(cmd, "%s: %s%s%s", o_out->value, cs_strerror(cs), *cs_errmsg() ? ": " : "",
                      cs_errmsg());
    printf("output = %s\n", o_out->value);
  }
  return CLI_EXIT_OK;
}

/* ------------------------------------------------------------ dispatch */

static const char friction_help[] =
    "usage: contensou friction <eta|eval|fit> [options]\n"
    "\n"
    "The Coulomb-Contensou friction laws of a plane contact (dimensionless).\n"
    "\n"
    "sub-commands:\n"
    "  eta    convert between eta (static/kinetic ratio) and eta' (regularization)\n"
    "  eval   evaluate a law: friction force (Tsx, Tsy) and moment Ms\n"
    "  fit    fit (b, m) of I00 or I11 to the integral model, compare with the papers\n"
    "\n"
    "contensou friction <sub-command> --help describes its options, its output\n"
    "('name = value' lines on stdout) and its exit status: 0 success, 1 a numerical\n"
    "failure or an I/O error, 2 bad arguments.\n";

int cli_friction(const struct cli_ctx *ctx, int argc, char **argv)
{
  const char *cmd = "contensou friction";
  cli_output_signals();
  const char *sub = argc > 1 ? argv[1] : NULL;
  if (!sub)
    return cli_usage(cmd, "missing sub-command: eta, eval or fit (see %s --help)", cmd);
  if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
    fputs(friction_help, stdout);
    return CLI_EXIT_OK;
  }
  if (strcmp(sub, "eta") == 0)
    return friction_eta(argc - 2, argv + 2);
  if (strcmp(sub, "eval") == 0)
    return friction_eval(argc - 2, argv + 2);
  if (strcmp(sub, "fit") == 0)
    return friction_fit(ctx, argc - 2, argv + 2);
  return cli_usage(cmd, "unknown sub-command '%s': expected eta, eval or fit", sub);
}
