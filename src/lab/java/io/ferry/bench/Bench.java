package io.ferry.bench;

import io.ferry.support.WanEmulator;
import io.ferry.config.S3EndpointConfig;
import io.ferry.demo.Demo;
import io.ferry.support.S3ProxyProcess;
import io.ferry.support.SeedData;
import io.ferry.store.s3.S3Clients;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The benchmark {@code bench/run.sh} drives: two S3Proxy endpoints (source A, destination B) on loopback, optionally
 * behind {@link WanEmulator}s, seeded with the workloads; then Ferry and the peer tools copy each workload for each
 * task, timed by {@code /usr/bin/time} (wall, CPU, peak RSS), every copy verified by SHA-256; results appended to
 * a CSV and a markdown table.
 *
 * <p>Selection by environment: FERRY_BENCH_WORKLOADS (large,small,mixed; also large-md5: large, each put whole; many:
 * 100,000 objects of 16-64 KiB, flat: 20,000 of 64 KiB in one folder, huge, one), FERRY_BENCH_TASKS
 * (files,other,same), FERRY_BENCH_MODES (direct,wan; link: the WAN with every connection to an endpoint sharing one
 * link of FERRY_BENCH_LINK_MBPS, 125 = 1 Gbit/s, each way), FERRY_BENCH_TOOLS
 * (raw,ferry,rclone,rclone-tuned,aws,aws-tuned,s3cmd,distcp,distcp-tuned; a Ferry variant is written
 * ferry@key=value@..., e.g. ferry@copy.streams-per-task=4@heap=512m, keys under ferry., heap for the JVM's -Xmx, jit
 * for FERRY_JIT and digests=jdk for the JDK's MD5 and SHA-256), FERRY_BENCH_SCALE (1.0 = the sizes of issue 4; the
 * workload huge, one FERRY_BENCH_HUGE_MIB (4096) object, and the workload one, one 1 KiB object (a tool's fixed cost
 * per run), are not scaled; another scale seeds buckets of its own, so that its extra objects never join the full-size
 * workloads), FERRY_BENCH_WAN_MBPS (40), FERRY_BENCH_WAN_DELAY_MS (10), FERRY_BENCH_WARMUP (1; 0 skips the first
 * tool's unrecorded run per mode and task that warms the servers), FERRY_BENCH_SETTLE_S (10: seconds each run waits
 * after the last run's files are deleted), FERRY_BENCH_REPEAT (1; n runs every tool n times in turns, and the table
 * shows the run of median wall time of each), FERRY_BENCH_RESULTS (the CSV; default bench/results/results.csv),
 * FERRY_BENCH_RAW_STREAMS (32) and FERRY_BENCH_RAW_PART_MIB (32) for the raw reader, FERRY_BENCH_FS_LABEL (the
 * filesystem bench/run.sh mounted for the runs, noted on rows into files). {@code Bench <home> --table
 * <csv>} re-renders a CSV's table.
 */
public final class Bench {
  private static final long MIB = 1L << 20;
  private static final String ID = "bench";
  private static final String SECRET = "bench-secret-key";
  static final String HEADER = "when,session,mode,workload,task,tool,bytes,objects,wall_s,sync_s,mb_per_s,mb_per_s_with_sync,"
      + "objects_per_s,cpu_s,cpu_s_per_gb,max_rss_mib,inner_mb_per_s,verified,note";
  /** One bench invocation: ratios in the table compare rows of the same session only. */
  private final String session = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(java.time.ZoneOffset.UTC)
      .format(Instant.now());

  private final Path home;
  private final Path work;
  private S3ProxyProcess a;
  private S3ProxyProcess b;
  private int runs;

  private Bench(Path home, Path work) {
    this.home = home;
    this.work = work;
  }

  record Endpoints(String source, String destination) {}

  record Measured(double wall, double cpu, long maxRssKiB, int exit, String log) {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
    if (args.length > 2 && args[1].equals("--table")) { // re-render a results CSV as its markdown table
      Path csv = Path.of(args[2]);
      writeMarkdown(csv, csv.resolveSibling(csv.getFileName().toString().replace(".csv", ".md")));
      return;
    }
    Path work = home.resolve("target/bench");
    new Bench(home, work).run();
    S3Clients.closeAll();
    System.exit(0);
  }

  private static List<String> select(String variable, String defaults) {
    return Arrays.asList(System.getenv().getOrDefault(variable, defaults).split(","));
  }

  private static Map<String, List<SeedData.Spec>> workloads(double scale) {
    Map<String, List<SeedData.Spec>> w = new LinkedHashMap<>();
    long gib = (long) (1024 * MIB * scale);
    w.put("large", List.of(new SeedData.Spec("large/a.bin", gib, 1), new SeedData.Spec("large/b.bin", gib, 2)));
    // issue 25's verification without a second pass: the same sizes, each one PutObject (an MD5 ETag, copied in parts)
    w.put("large-md5", List.of(new SeedData.Spec("large-md5/a.bin", gib, 1, true), new SeedData.Spec("large-md5/b.bin", gib, 2, true)));
    List<SeedData.Spec> small = new ArrayList<>();
    for (int i = 0; i < (int) (2000 * scale); i++) small.add(new SeedData.Spec(String.format("small/%02d/o-%05d", i % 20, i), 256 * 1024,
        10 + i));
    w.put("small", small);
    List<SeedData.Spec> mixed = new ArrayList<>();
    mixed.add(new SeedData.Spec("mixed/big.bin", gib, 3));
    for (int i = 0; i < (int) (1000 * scale); i++) mixed.add(new SeedData.Spec(String.format("mixed/%02d/m-%05d", i % 10, i), MIB, 5000
        + i));
    w.put("mixed", mixed);
    // issue 16's long single-host job: 100,000 objects of 16-64 KiB in 100 folders at scale 1
    List<SeedData.Spec> many = new ArrayList<>();
    java.util.SplittableRandom sizes = new java.util.SplittableRandom(16);
    for (int i = 0; i < (int) (100_000 * scale); i++) {
      many.add(new SeedData.Spec(String.format("many/%02d/n-%06d", i % 100, i), 16 * 1024 + sizes.nextInt(48 * 1024 + 1), 200_000 + i));
    }
    w.put("many", many);
    // issue 25's small workload: 20,000 objects of 64 KiB under one prefix (a flat folder) at scale 1
    List<SeedData.Spec> flat = new ArrayList<>();
    for (int i = 0; i < (int) (20_000 * scale); i++) flat.add(new SeedData.Spec(String.format("flat/f-%06d", i), 64 * 1024, 400_000 + i));
    w.put("flat", flat);
    // not scaled: the memory target is a 4 GiB object copied by a 512 MiB heap (tool ferry@heap=512m)
    long huge = Long.parseLong(System.getenv().getOrDefault("FERRY_BENCH_HUGE_MIB", "4096")) * MIB;
    w.put("huge", List.of(new SeedData.Spec("huge/h.bin", huge, 4)));
    // not scaled: one 1 KiB object, so a run's time is the tool's fixed cost (start, list, one copy, exit)
    w.put("one", List.of(new SeedData.Spec("one/o.bin", 1024, 6)));
    return w;
  }

  /** src-small at scale 1; src-small-x0.5 at scale 0.5 (each scale keeps its own seeded objects). */
  private static String sourceBucket(String workload) {
    String scale = System.getenv().getOrDefault("FERRY_BENCH_SCALE", "1.0");
    return "src-" + workload + (Double.parseDouble(scale) == 1.0 ? "" : "-x" + scale);
  }

  private void run() throws Exception {
    double scale = Double.parseDouble(System.getenv().getOrDefault("FERRY_BENCH_SCALE", "1.0"));
    double wanMbps = Double.parseDouble(System.getenv().getOrDefault("FERRY_BENCH_WAN_MBPS", "40"));
    long wanDelay = Long.parseLong(System.getenv().getOrDefault("FERRY_BENCH_WAN_DELAY_MS", "10"));
    double linkMbps = Double.parseDouble(System.getenv().getOrDefault("FERRY_BENCH_LINK_MBPS", "125"));
    int repeat = Integer.parseInt(System.getenv().getOrDefault("FERRY_BENCH_REPEAT", "1"));
    if (repeat < 1) throw new IllegalArgumentException("FERRY_BENCH_REPEAT=" + repeat + ": runs per tool, at least 1");
    Files.createDirectories(work);
    Path csv = Path.of(System.getenv().getOrDefault("FERRY_BENCH_RESULTS", home.resolve("bench/results/results.csv").toString()));
    Files.createDirectories(csv.getParent());
    if (!Files.exists(csv)) {
      Files.writeString(csv, HEADER + "\n");
    }
    try (S3ProxyProcess sa = S3ProxyProcess.start(work.resolve("a-data"), ID, SECRET);
        S3ProxyProcess sb = S3ProxyProcess.start(work.resolve("b-data"), ID, SECRET);
        WanEmulator wanA = new WanEmulator(0, sa.port(), wanMbps, wanDelay);
        WanEmulator wanB = new WanEmulator(0, sb.port(), wanMbps, wanDelay);
        WanEmulator linkA = new WanEmulator(0, sa.port(), wanMbps, wanDelay, linkMbps);
        WanEmulator linkB = new WanEmulator(0, sb.port(), wanMbps, wanDelay, linkMbps)) {
      a = sa;
      b = sb;
      S3Client clientA = io.ferry.support.TestS3.client(S3EndpointConfig.withKeys(sa.endpoint(), "us-east-1", ID, SECRET));
      Map<String, List<SeedData.Spec>> all = workloads(scale);
      Map<String, Map<String, String>> digests = new LinkedHashMap<>();
      for (String workload : select("FERRY_BENCH_WORKLOADS", "large,small,mixed")) {
        long t = System.nanoTime();
        digests.put(workload, SeedData.ensure(clientA, sourceBucket(workload), all.get(workload), 8));
        System.out.printf("seeded %s: %d objects in %.1f s%n", workload, all.get(workload).size(), (System.nanoTime() - t) / 1e9);
      }
      for (String mode : select("FERRY_BENCH_MODES", "direct,wan")) {
        Endpoints endpoints = switch (mode) {
          case "wan" -> new Endpoints("http://127.0.0.1:" + wanA.port(), "http://127.0.0.1:" + wanB.port());
          case "link" -> new Endpoints("http://127.0.0.1:" + linkA.port(), "http://127.0.0.1:" + linkB.port());
          case "direct" -> new Endpoints(sa.endpoint(), sb.endpoint());
          default -> throw new IllegalArgumentException("FERRY_BENCH_MODES: " + mode + " is not direct, wan or link");
        };
        java.util.Set<String> warm = new java.util.HashSet<>();
        for (String workload : digests.keySet()) {
          long bytes = all.get(workload).stream().mapToLong(SeedData.Spec::size).sum();
          for (String task : select("FERRY_BENCH_TASKS", "files,other,same")) {
            List<String> tools = select("FERRY_BENCH_TOOLS", "raw,ferry,rclone,rclone-tuned,aws,aws-tuned,s3cmd,distcp,distcp-tuned");
            // a fresh server's first run pays its JIT's warm-up (twice a warm run's server CPU on the flat job): the
            // first tool that can do the task runs once unrecorded per mode and task, so that no tool's first run carries it
            if (!"0".equals(System.getenv("FERRY_BENCH_WARMUP")) && warm.add(task)) {
              for (String tool : tools) {
                if (runOne(mode, endpoints, workload, task, tool, bytes, digests.get(workload), null)) break;
              }
            }
            // FERRY_BENCH_REPEAT=n: every tool n times, in turns (A B C A B C ...); results.md shows each one's median
            for (int round = 0; round < repeat; round++) {
              for (String tool : tools) {
                runOne(mode, endpoints, workload, task, tool, bytes, digests.get(workload), csv);
              }
            }
          }
        }
      }
    }
    writeMarkdown(csv, csv.resolveSibling(csv.getFileName().toString().replace(".csv", ".md")));
  }

  /** One run of {@code tool}, recorded in {@code csv} (null: a warm-up); false where the tool cannot do the task. */
  private boolean runOne(String mode, Endpoints endpoints, String workload, String task, String tool, long bytes,
      Map<String, String> expected, Path csv) throws Exception {
    String bucket = sourceBucket(workload);
    String dstBucket = "dst-" + workload + "-" + base(tool) + "-" + mode + "-" + System.nanoTime() % 100000;
    Path dir = work.resolve("out").resolve(mode + "-" + workload + "-" + tool);
    Demo.deleteTree(work.resolve("out"));
    Files.createDirectories(dir);
    boolean toFiles = task.equals("files");
    boolean same = task.equals("same");
    String dstEndpoint = same ? endpoints.source() : endpoints.destination();
    S3Client dstClient = io.ferry.support.TestS3.client(S3EndpointConfig.withKeys(same ? a.endpoint() : b.endpoint(), "us-east-1", ID,
        SECRET));
    List<String> command = command(tool, task, endpoints.source(), bucket, dstEndpoint, dstBucket, dir);
    if (command == null) return false; // the tool cannot do this task (e.g. one endpoint only): no bucket left behind
    // This VM hands freed memory back to its host within seconds (virtio-balloon free page reporting), and writing into
    // memory the host must give back costs the writer 0.7-1.2 kernel CPU-s per GiB more: the pages the last run's files
    // freed would be cheap for a tool that writes at once and dear for one that starts slower, so each run waits until
    // they are returned (FERRY_BENCH_SETTLE_S, 10 s; 0 starts at once)
    Thread.sleep(1000L * Integer.parseInt(System.getenv().getOrDefault("FERRY_BENCH_SETTLE_S", "10")));
    if (!toFiles) dstClient.createBucket(r -> r.bucket(dstBucket));
    System.out.printf("%s %s %s %s%s ... ", mode, workload, task, tool, csv == null ? " (warm-up, not recorded)" : "");
    Map<String, String> env = new LinkedHashMap<>();
    env.put("RCLONE_CONFIG_SRC_ENDPOINT", endpoints.source());
    env.put("RCLONE_CONFIG_DST_ENDPOINT", endpoints.destination());
    Path awsConfig = work.resolve("aws-config");
    write(awsConfig, "[default]\n" + (tool.equals("aws-tuned")
        ? "s3 =\n  max_concurrent_requests = 32\n  multipart_chunksize = 64MB\n  multipart_threshold = 64MB\n" : ""));
    env.put("AWS_CONFIG_FILE", awsConfig.toString());
    String heap = "2g";
    String jvm = System.getenv().getOrDefault("FERRY_BENCH_JVM_OPTS", "");
    for (String override : overrides(tool)) {
      if (override.startsWith("heap=")) {
        heap = override.substring(5);
      } else if (override.startsWith("digests=")) {
        jvm += " -Dferry." + override; // store/checksums/Digests: jdk keeps the JDK's
      } else if (override.startsWith("jit=")) {
        env.put("FERRY_JIT", override.substring(4)); // jobs/env.sh: late-c2 (local default), default, c1
      }
    }
    env.put("FERRY_DRIVER_OPTS", "-Xmx" + heap + " " + jvm);
    double serverBefore = serverCpu();
    Measured m = measure(command, env, String.join("-", mode, workload, task, tool));
    double server = serverCpu() - serverBefore;
    double sync = 0;
    if (toFiles && !tool.equals("raw")) {
      long t = System.nanoTime();
      new ProcessBuilder("sync").inheritIO().start().waitFor();
      sync = (System.nanoTime() - t) / 1e9;
    }
    String verified;
    if (tool.equals("raw")) {
      verified = "read-only";
    } else if (m.exit() != 0) {
      verified = "exit " + m.exit();
    } else {
      Map<String, String> actual = toFiles ? fileDigests(dir, workload) : bucketDigests(dstClient, dstBucket, workload, expected.keySet());
      verified = actual.equals(new TreeMap<>(expected)) ? "yes" : "NO (" + actual.size() + "/" + expected.size() + " objects)";
    }
    double inner = 0;
    String note = "";
    if (base(tool).equals("ferry") && m.exit() == 0) {
      double[] stage = ferryCopyStage();
      inner = stage[1];
      note = String.format(Locale.ROOT, "copy stage %.1f s of a %.1f s run; a range's MB/s p50 %.1f", stage[0], stage[2], stage[3]);
    } else if (tool.equals("raw") && m.exit() == 0) {
      java.util.regex.Matcher line = java.util.regex.Pattern.compile("(?m)^(\\d+) ([\\d.]+) ([\\d.]+)$").matcher(m.log());
      if (line.find()) { // "bytes seconds MB/s"
        inner = Double.parseDouble(line.group(3));
        note = line.group(2) + " s of ranged GETs after the listing";
      }
    }
    // on one machine the wall is bounded by (client + servers' CPU) / cores: the servers' share names the rest
    note = (note.isEmpty() ? "" : note + "; ") + String.format(Locale.ROOT, "servers' CPU %.1f s", server)
        + (toFiles ? "; into a " + System.getenv().getOrDefault("FERRY_BENCH_FS_LABEL", "host filesystem") : "");
    double mbps = bytes / 1e6 / m.wall();
    double cpuPerGb = m.cpu() / (bytes / 1e9);
    String row = String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%s,%d,%d,%.2f,%.2f,%.1f,%.1f,%.1f,%.1f,%.2f,%d,%.1f,%s,%s",
        Instant.now(), session, mode, workload, task, tool, bytes, expected.size(), m.wall(), sync, mbps,
        bytes / 1e6 / (m.wall() + sync), expected.size() / (m.wall() + sync), m.cpu(), cpuPerGb, m.maxRssKiB() / 1024,
        inner, verified, note);
    if (csv != null) Files.writeString(csv, row + "\n", java.nio.file.StandardOpenOption.APPEND); // null: a warm-up
    System.out.printf(Locale.ROOT, "%.1f s, %.1f MB/s, cpu %.1f s, rss %d MiB, verified %s%n", m.wall(), mbps, m.cpu(),
        m.maxRssKiB() / 1024, verified);
    if (m.exit() != 0) System.out.println(m.log().lines().reduce("", (x, y) -> x.length() > 3000 ? x : x + "\n    " + y));
    if (!toFiles) deleteBucket(dstClient, dstBucket, workload, expected.keySet());
    return true;
  }

  private List<String> command(String tool, String task, String src, String bucket, String dst, String dstBucket, Path dir) {
    boolean files = task.equals("files");
    boolean other = task.equals("other");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = home.resolve("target/classes") + ":" + home.resolve("target/test-classes") + ":" + localDependencies();
    return switch (base(tool)) {
      case "raw" -> task.equals("same") ? null : List.of(java, "-cp", classpath, RawRangedReader.class.getName(), src, bucket, "",
          System.getenv().getOrDefault("FERRY_BENCH_RAW_STREAMS", "32"), System.getenv().getOrDefault("FERRY_BENCH_RAW_PART_MIB", "32"));
      case "ferry" -> {
        Path conf = work.resolve("ferry-" + task + ".conf");
        String destination = files ? "destination.path = \"" + dir + "\""
            : "destination { type = s3, endpoint = \"" + dst + "\", bucket = " + dstBucket
                + ", credentials { access-key-id = " + ID + ", secret-access-key = ${?BENCH_SECRET} } }";
        write(conf, "ferry { job.name = bench, report.path = \"" + work.resolve("reports") + "\", copy.skip-unchanged = false\n"
            + "source { endpoint = \"" + src + "\", bucket = " + bucket + ", credentials { access-key-id = " + ID
            + ", secret-access-key = ${?BENCH_SECRET} } }\n" + destination + "\n}\n");
        List<String> c = new ArrayList<>(List.of("bash", home.resolve("jobs/migrate.sh").toString(), conf.toString()));
        for (String override : overrides(tool)) {
          if (!override.startsWith("heap=") && !override.startsWith("jit=") && !override.startsWith("digests=")) {
            c.add("-Dferry." + override);
          }
        }
        yield c;
      }
      case "distcp" -> distcp(tool.endsWith("tuned"), java, src, "s3a://" + bucket + "/",
          files ? dir.toUri().toString() : "s3a://" + dstBucket + "/", files ? null : dstBucket, dst);
      case "rclone", "rclone-tuned" -> {
        List<String> c = new ArrayList<>(List.of("rclone", "copy", "src:" + bucket,
            files ? dir.toString() : (other ? "dst:" : "src:") + dstBucket, "--s3-no-check-bucket"));
        if (tool.endsWith("tuned")) {
          c.addAll(List.of("--transfers", "16", "--checkers", "16", "--multi-thread-streams", "8", "--multi-thread-cutoff",
              "64M", "--s3-upload-concurrency", "8", "--s3-chunk-size", "64M", "--s3-copy-cutoff", "64M"));
        }
        yield c;
      }
      case "aws", "aws-tuned" -> other ? null : List.of("/usr/bin/aws", "s3", "cp", "--recursive", "--only-show-errors",
          "--endpoint-url", src, "s3://" + bucket + "/", files ? dir.toString() : "s3://" + dstBucket + "/",
          "--copy-props", "none"); // S3Proxy answers 501 to the metadata-directive AWS CLI sends by default
      case "s3cmd" -> other ? null : files
          ? List.of("s3cmd", "--quiet", "--no-ssl", "--host=" + hostPort(src), "--host-bucket=" + hostPort(src),
              "--access_key=" + ID, "--secret_key=" + SECRET, "get", "--recursive", "s3://" + bucket + "/", dir + "/")
          : List.of("s3cmd", "--quiet", "--no-ssl", "--host=" + hostPort(src), "--host-bucket=" + hostPort(src),
              "--access_key=" + ID, "--secret_key=" + SECRET, "cp", "--recursive", "s3://" + bucket + "/", "s3://" + dstBucket + "/");
      default -> throw new IllegalArgumentException("unknown tool " + tool);
    };
  }

  /** "ferry@plan.part-size=32MiB@heap=512m" is tool ferry with those overrides; "distcp-tuned" is distcp, tuned. */
  static String base(String tool) {
    String name = tool.split("@")[0];
    return name.endsWith("-tuned") ? name.substring(0, name.length() - "-tuned".length()) : name;
  }

  static List<String> overrides(String tool) {
    List<String> parts = Arrays.asList(tool.split("@"));
    return parts.subList(1, parts.size());
  }

  /**
   * Hadoop DistCp with S3A (the hadoop-distcp jar bench/run.sh fetches, with Spark's Hadoop client and hadoop-aws),
   * under the local job runner. Defaults: one map (Hadoop's local provider forces it). Tuned: 16 maps in parallel
   * threads ({@link ParallelLocalProvider}), more S3A threads and connections, {@code -direct} writes to a bucket.
   */
  private List<String> distcp(boolean tuned, String java, String srcEndpoint, String from, String to, String dstBucket,
      String dstEndpoint) {
    Path services = work.resolve("distcp-services/META-INF/services/org.apache.hadoop.mapreduce.protocol.ClientProtocolProvider");
    write(services, ParallelLocalProvider.class.getName() + "\n");
    String classpath = home.resolve("target/distcp") + "/*:" + work.resolve("distcp-services") + ":"
        + home.resolve("target/classes") + ":" + home.resolve("target/test-classes") + ":" + localDependencies();
    List<String> c = new ArrayList<>(List.of(java, "-Xmx2g", "-Daws.requestChecksumCalculation=WHEN_REQUIRED",
        "-Daws.responseChecksumValidation=WHEN_REQUIRED", "-Dlog4j2.configurationFile=" + home.resolve("conf/log4j2.properties"),
        "-cp", classpath, "org.apache.hadoop.tools.DistCp",
        "-Dfs.s3a.endpoint=" + srcEndpoint, "-Dfs.s3a.endpoint.region=us-east-1", "-Dfs.s3a.path.style.access=true",
        "-Dfs.s3a.connection.ssl.enabled=false",
        "-Dfs.s3a.aws.credentials.provider=software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider",
        "-Dhadoop.tmp.dir=" + work.resolve("distcp-tmp")));
    if (dstBucket != null) c.add("-Dfs.s3a.bucket." + dstBucket + ".endpoint=" + dstEndpoint);
    if (tuned) {
      c.addAll(List.of("-Dmapreduce.framework.name=" + ParallelLocalProvider.FRAMEWORK, "-Dmapreduce.local.map.tasks.maximum=16",
          "-Dfs.s3a.threads.max=64", "-Dfs.s3a.connection.maximum=128", "-m", "16"));
      if (dstBucket != null) c.add("-direct");
    }
    c.addAll(List.of("-update", from, to));
    return c;
  }

  /** CPU seconds so far of both S3Proxy servers and of this JVM (the WAN emulators run here; nothing else does during a run). */
  private double serverCpu() {
    return a.cpuSeconds() + b.cpuSeconds() + ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
  }

  /** @param name what the run's kept log is called (target/bench-logs/<session>/<n>-<name>.log) */
  private Measured measure(List<String> command, Map<String, String> extra, String name) throws Exception {
    Path timeFile = work.resolve("time.txt");
    Path log = work.resolve("tool.log");
    List<String> timed = new ArrayList<>(List.of("/usr/bin/time", "-f", "%e %U %S %M", "-o", timeFile.toString()));
    timed.addAll(command);
    ProcessBuilder builder = new ProcessBuilder(timed).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("BENCH_SECRET", SECRET);
    env.put("FERRY_BENCH_ACCESS_KEY", ID);
    env.put("FERRY_BENCH_SECRET_KEY", SECRET);
    env.put("AWS_ACCESS_KEY_ID", ID);
    env.put("AWS_SECRET_ACCESS_KEY", SECRET);
    env.put("AWS_DEFAULT_REGION", "us-east-1");
    env.remove("AWS_CA_BUNDLE"); // rclone refuses it on plain http
    for (String side : List.of("SRC", "DST")) {
      env.put("RCLONE_CONFIG_" + side + "_TYPE", "s3");
      env.put("RCLONE_CONFIG_" + side + "_PROVIDER", "Other");
      env.put("RCLONE_CONFIG_" + side + "_ACCESS_KEY_ID", ID);
      env.put("RCLONE_CONFIG_" + side + "_SECRET_ACCESS_KEY", SECRET);
      env.put("RCLONE_CONFIG_" + side + "_FORCE_PATH_STYLE", "true");
    }
    env.put("FERRY_DRIVER_OPTS", "-Xmx2g " + System.getenv().getOrDefault("FERRY_BENCH_JVM_OPTS", "")); // e.g. a JFR recording
    env.putAll(extra);
    Process p = builder.start();
    boolean ended = p.waitFor(30, TimeUnit.MINUTES);
    if (!ended) p.destroyForcibly().waitFor();
    // each run's output outlives the bench (bench/run.sh's filesystem does not), a timed-out one's most of all
    Path kept = home.resolve("target/bench-logs").resolve(session);
    Files.createDirectories(kept);
    Files.copy(log, kept.resolve(String.format(Locale.ROOT, "%03d-%s.log", ++runs, name.replaceAll("[^A-Za-z0-9.=@_-]", "_"))));
    if (!ended) return new Measured(1800, 0, 0, -1, "timed out");
    String[] t = Files.readString(timeFile).trim().lines().reduce((x, y) -> y).orElse("0 0 0 0").split(" ");
    return new Measured(Double.parseDouble(t[0]), Double.parseDouble(t[1]) + Double.parseDouble(t[2]), Long.parseLong(t[3]),
        p.exitValue(), Files.readString(log));
  }

  /** From a Ferry run's newest summary.json: copy stage seconds, its MB/s, the run's wall seconds, a range's median MB/s. */
  private double[] ferryCopyStage() throws IOException {
    Path reports = work.resolve("reports/bench");
    if (!Files.isDirectory(reports)) return new double[4];
    try (var runs = Files.list(reports)) {
      // runs only: the job's folder also holds its ledger
      Path newest = runs.filter(r ->
          Files.exists(r.resolve("summary.json"))).max(java.util.Comparator.comparing(Path::getFileName)).orElse(null);
      if (newest == null) return new double[4];
      var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(newest.resolve("summary.json").toFile());
      return new double[] {json.at("/throughput/copyStageSeconds").asDouble(), json.at("/throughput/aggregateMBps").asDouble(),
          json.at("/wallSeconds").asDouble(), json.at("/throughput/rangeP50MBps").asDouble()};
    }
  }

  private Map<String, String> fileDigests(Path dir, String workload) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.filter(Files::isRegularFile).toList()) {
        String name = dir.relativize(p).toString();
        String file = p.getFileName().toString();
        if (file.startsWith(".ferry-") || (file.startsWith(".") && file.endsWith(".crc"))) continue; // Hadoop's checksum files
        out.put(name.startsWith(workload + "/") ? name : workload + "/" + name, SeedData.sha256(p));
      }
    }
    return out;
  }

  /** Every object's SHA-256, eight GETs at a time (a copy of 100,000 objects is read back in a minute, not ten). */
  private static Map<String, String> bucketDigests(S3Client s3, String bucket, String workload, Set<String> expected) throws IOException {
    List<S3Object> objects = new ArrayList<>();
    for (S3Object o : listFolders(s3, bucket, workload, expected)) {
      if (!(o.key().endsWith("/") && o.size() == 0)) objects.add(o); // a directory marker (S3A's mkdirs) is not an object
    }
    List<String> digests;
    try {
      digests = io.ferry.copy.Concurrently.map(objects, 8, "read-back", o -> {
        MessageDigest sha = SeedData.sha256();
        try (InputStream in = s3.getObject(r -> r.bucket(bucket).key(o.key()))) {
          byte[] buffer = new byte[1 << 20];
          for (int n; (n = in.read(buffer)) > 0; ) sha.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(sha.digest());
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("reading " + bucket + " back was interrupted");
    }
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < objects.size(); i++) {
      String key = objects.get(i).key();
      out.put(key.startsWith(workload + "/") ? key : workload + "/" + key, digests.get(i));
    }
    return out;
  }

  /**
   * The objects of a copy in the folders its expected keys are in, with or without the workload's folder (tools
   * differ), folder by folder ({@link SeedData#listFolders}). An object in another folder is not seen here; the
   * bucket's deletion then fails and says so.
   */
  private static List<S3Object> listFolders(S3Client s3, String bucket, String workload, Set<String> expected) {
    Set<String> folders = new java.util.TreeSet<>();
    for (String key : expected) {
      String folder = SeedData.folder(key);
      folders.add(folder);
      if (folder.startsWith(workload + "/")) folders.add(folder.substring(workload.length() + 1));
    }
    return SeedData.listFolders(s3, bucket, folders);
  }

  /** Empties and deletes a run's bucket; one S3Proxy still calls non-empty is left (its name is the run's own). */
  private static void deleteBucket(S3Client s3, String bucket, String workload, Set<String> expected) {
    List<ObjectIdentifier> keys = new ArrayList<>();
    for (S3Object o : listFolders(s3, bucket, workload, expected)) {
      keys.add(ObjectIdentifier.builder().key(o.key()).build());
    }
    for (int i = 0; i < keys.size(); i += 1000) { // DeleteObjects takes 1,000 keys a request
      List<ObjectIdentifier> batch = keys.subList(i, Math.min(keys.size(), i + 1000));
      s3.deleteObjects(r -> r.bucket(bucket).delete(d -> d.objects(batch).quiet(true)));
    }
    for (var u : s3.listMultipartUploadsPaginator(r -> r.bucket(bucket)).uploads()) {
      s3.abortMultipartUpload(r -> r.bucket(bucket).key(u.key()).uploadId(u.uploadId()));
    }
    try {
      s3.deleteBucket(r -> r.bucket(bucket));
    } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
      System.out.println("(bucket " + bucket + " left: " + e.awsErrorDetails().errorMessage() + ")");
    }
  }

  /** The local run's dependencies as jobs/env.sh's ferry_dependencies lists them: compile and provided, then runtime (S3A). */
  private String localDependencies() {
    return read(home.resolve("target/local-classpath.txt")) + ":" + read(home.resolve("target/local-runtime-classpath.txt"));
  }

  private static String hostPort(String url) {
    return url.replaceFirst("https?://", "");
  }

  private static String read(Path p) {
    try {
      return Files.readString(p).trim();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void write(Path p, String s) {
    try {
      Files.createDirectories(p.getParent());
      Files.writeString(p, s);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * The CSV as a table, with each Ferry row compared to rows of the same session, mode, workload and task: the best
   * verified peer by MB/s (as measured, and including the timed sync for → files, since Ferry fsyncs), and the raw
   * reader's GET-phase rate (the limit). "inner MB/s" is Ferry's copy stage alone, or the raw reader's GET phase.
   */
  static void writeMarkdown(Path csv, Path md) throws IOException {
    if (Files.exists(md) && !Files.readString(md).startsWith("| mode |")) { // cpu.md: cpu.sh's figures and their notes
      System.out.println("Left " + md + " as it is: it holds more than this table");
      return;
    }
    List<String> lines = Files.readAllLines(csv);
    List<String[]> all = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) all.add(line.split(",", -1));
    Map<String[], Integer> runs = new java.util.IdentityHashMap<>();
    Map<String[], Integer> failed = new java.util.IdentityHashMap<>();
    List<String[]> rows = medians(all, runs, failed);
    Map<String, Double> bestPeer = new java.util.HashMap<>();
    Map<String, Double> bestPeerSynced = new java.util.HashMap<>();
    Map<String, Double> limit = new java.util.HashMap<>();
    for (String[] f : rows) {
      String group = f[1] + "|" + f[2] + "|" + f[3] + "|" + f[4];
      String base = base(f[5]);
      if (base.equals("raw") && !f[16].isEmpty()) limit.merge(group, Double.parseDouble(f[16]), Math::max);
      if (!base.equals("ferry") && !base.equals("raw") && f[17].equals("yes")) {
        bestPeer.merge(group, Double.parseDouble(f[10]), Math::max);
        bestPeerSynced.merge(group, Double.parseDouble(f[11]), Math::max);
      }
    }
    StringBuilder out = new StringBuilder("| mode | workload | task | tool | MB/s | MB/s incl. sync | objects/s | wall s | CPU s/GB "
        + "| peak RSS MiB | inner MB/s | × best peer | × best peer incl. sync | % of limit | verified |\n"
        + "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (String[] f : rows) {
      String group = f[1] + "|" + f[2] + "|" + f[3] + "|" + f[4];
      boolean files = f[4].equals("files");
      boolean ferry = base(f[5]).equals("ferry");
      double mbps = Double.parseDouble(f[10]);
      String vsPeer = ferry && bestPeer.containsKey(group) ? String.format(Locale.ROOT, "%.2f", mbps / bestPeer.get(group)) : "";
      String vsSynced = ferry && files && bestPeerSynced.containsKey(group)
          ? String.format(Locale.ROOT, "%.2f", mbps / bestPeerSynced.get(group)) : "";
      String vsLimit = ferry && limit.containsKey(group) ? String.format(Locale.ROOT, "%.0f%%", 100 * mbps / limit.get(group)) : "";
      boolean inner = !f[16].isEmpty() && Double.parseDouble(f[16]) > 0;
      out.append(String.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", f[2], f[3], f[4],
          f[5].replace("@", " ") + (runs.get(f) > 1 ? " (median of " + runs.get(f) + ")" : ""), f[10], files && !f[5].equals("raw") ? f[11]
              : "", f[12], f[8], f[14], f[15], inner ? f[16] : "",
          vsPeer, vsSynced, vsLimit, f[17] + (runs.get(f) > 1 && failed.getOrDefault(f, 0) > 0 ? " (" + failed.get(f) + " of "
              + runs.get(f) + " runs not)" : "")));
    }
    Files.writeString(md, out.toString());
  }

  /**
   * One row per session, mode, workload, task and tool: a tool run more than once in a session (FERRY_BENCH_REPEAT)
   * is its run of median wall time (the lower middle one of an even count); a failed or unverified run counts as the
   * slowest. In order of each group's first row; {@code runs} gets each row's number of runs, {@code failed} the
   * number of them that failed or were not verified.
   */
  static List<String[]> medians(List<String[]> rows, Map<String[], Integer> runs, Map<String[], Integer> failed) {
    Map<String, List<String[]>> groups = new LinkedHashMap<>();
    for (String[] f : rows) groups.computeIfAbsent(f[1] + "|" + f[2] + "|" + f[3] + "|" + f[4] + "|" + f[5], k -> new ArrayList<>()).add(f);
    List<String[]> out = new ArrayList<>();
    for (List<String[]> group : groups.values()) {
      List<String[]> sorted = new ArrayList<>(group);
      sorted.sort(java.util.Comparator.comparingDouble(f -> ok(f) ? Double.parseDouble(f[8]) : Double.MAX_VALUE));
      String[] median = sorted.get((sorted.size() - 1) / 2);
      runs.put(median, group.size());
      failed.put(median, (int) group.stream().filter(f -> !ok(f)).count());
      out.add(median);
    }
    return out;
  }

  private static boolean ok(String[] row) {
    return row[17].equals("yes") || row[17].equals("read-only");
  }
}
