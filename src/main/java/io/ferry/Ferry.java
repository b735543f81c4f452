package io.ferry;

import io.ferry.config.ConfigException;
import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import io.ferry.report.RunPages;
import io.ferry.report.RunSummary;
import io.ferry.spark.run.Commands;
import io.ferry.spark.JobFailure;
import io.ferry.spark.SparkStart;
import io.ferry.store.retry.Failures;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line: {@code ferry migrate|plan <job.conf> [-Dferry.key=value ...]}.
 *
 * <p>Exit codes: 0 everything copied; 1 the run finished but some objects failed (see the report); 2 usage or
 * configuration error; 3 the job could not run (source not listable, destination not writable); 4 nothing failed, and
 * objects archived at the source are being restored ({@code source.archived = restore}): a rerun copies them.
 */
public final class Ferry {
  public static final int OK = 0;
  public static final int SOME_FAILED = 1;
  public static final int BAD_CONFIG = 2;
  public static final int JOB_FAILED = 3;
  public static final int PENDING = 4;

  private static final String USAGE = """
      usage: ferry <command> <job.conf> [-Dferry.key=value ...]
        migrate   list, plan and copy the source to the destination, then write the report; a rerun of a job
                  resumes what an earlier run left (the uploads and temp files in its ledger, part by part)
        plan      list and plan only (a dry run): objects, ranges, bytes and requests, nothing copied
        verify    compare the destination with the source without copying (by MD5 ETags where both have them, else
                  by reading both sides on the cluster); writes a report of every difference; --manifest writes a
                  completion manifest (each object's checksum on both sides, its SHA-256 in summary.json) and
                  exits 0 only when every source object is proven equal by a checksum
        cleanup   abort the uploads and remove the temp files the job's earlier runs left (never anything else);
                  --dry-run lists them only
      usage: ferry report <run-folder> [<run-folder> ...] [--out compare.html]
        report    one run: write its report.html again from its datasets; several: a page comparing them (totals and
                  their change from the first, throughput over time overlaid, range rates), compare.html unless --out
      Settings and their defaults: reference.conf; examples: conf/examples/.""";

  private Ferry() {}

  /** {@code ferry report}: needs neither a job file nor Spark, only the run folders. */
  private static int report(List<String> args, PrintStream out, PrintStream err) {
    List<String> runs = new ArrayList<>();
    String page = "compare.html";
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals("--out") && i + 1 < args.size()) {
        page = args.get(++i);
      } else if (args.get(i).startsWith("-")) {
        err.println(USAGE);
        return BAD_CONFIG;
      } else {
        runs.add(args.get(i));
      }
    }
    if (runs.isEmpty()) {
      err.println(USAGE);
      return BAD_CONFIG;
    }
    try {
      if (runs.size() == 1) {
        out.println("Wrote " + RunPages.regenerate(runs.get(0)));
      } else {
        RunPages.compare(runs, page);
        out.println("Wrote " + page + " comparing " + runs.size() + " runs");
      }
      return OK;
    } catch (Exception e) {
      err.println("ferry: cannot write the report: " + Failures.describe(e));
      return JOB_FAILED;
    }
  }

  private static int badConfig(ConfigException e, PrintStream err) {
    err.println("ferry: the job configuration has " + (e.problems().size() == 1 ? "a problem" : e.problems().size() + " problems") + ":");
    e.problems().forEach(p -> err.println("  - " + p));
    return BAD_CONFIG;
  }

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    Commands.closeClients();
    System.exit(code);
  }

  /** Runs a command and returns its exit code; never calls {@code System.exit}. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 0 && args[0].equals("report")) return report(List.of(args).subList(1, args.length), out, err);
    List<String> positional = new ArrayList<>();
    Map<String, String> overrides = new LinkedHashMap<>();
    boolean dryRun = false;
    boolean manifest = false;
    for (String arg : args) {
      if (arg.startsWith("-D") && arg.contains("=")) {
        overrides.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      } else if (arg.equals("--dry-run")) {
        dryRun = true;
      } else if (arg.equals("--manifest")) {
        manifest = true;
      } else if (arg.equals("-h") || arg.equals("--help")) {
        out.println(USAGE);
        return OK;
      } else {
        positional.add(arg);
      }
    }
    if (positional.size() != 2 || !List.of("migrate", "plan", "verify", "cleanup").contains(positional.get(0))
        || dryRun && !positional.get(0).equals("cleanup") || manifest && !positional.get(0).equals("verify")) {
      err.println(USAGE);
      return BAD_CONFIG;
    }
    boolean onSpark = !positional.get(0).equals("cleanup");
    SparkStart spark = onSpark ? SparkStart.begin() : null; // while the job file is read and checked
    MigrationConfig config;
    try {
      config = ConfigLoader.load(Path.of(positional.get(1)), overrides);
    } catch (ConfigException e) {
      return badConfig(e, err);
    }
    try {
      if (positional.get(0).equals("plan")) {
        Commands.plan(config, spark, out);
        return OK;
      }
      if (positional.get(0).equals("cleanup")) return Commands.cleanup(config, dryRun, out) == 0 ? OK : SOME_FAILED;
      if (positional.get(0).equals("verify")) {
        return Commands.verify(config, spark, manifest ? Commands.Verify.MANIFEST : Commands.Verify.DIFFERENCES, out).passed() ? OK
            : SOME_FAILED;
      }
      RunSummary summary = Commands.migrate(config, spark, out);
      return !summary.succeeded() ? SOME_FAILED : summary.pending() ? PENDING : OK;
    } catch (ConfigException e) {
      return badConfig(e, err); // found again before the first write or the delete pass (a link changed since)
    } catch (JobFailure e) {
      err.println("ferry: " + e.getMessage());
      logNamed(err);
      return JOB_FAILED;
    } catch (Exception e) {
      err.println("ferry: the run failed: " + Failures.describe(e));
      logNamed(err);
      return JOB_FAILED;
    }
  }

  /** Where Spark's task failures and their stack traces went (conf/log4j2.properties), where they were written. */
  private static void logNamed(PrintStream err) {
    String log = System.getProperty("ferry.log.file", "");
    if (!log.isEmpty() && Files.isRegularFile(Path.of(log))) err.println("  Spark's log of it, stack traces and all: " + log);
  }
}
