package io.ferry.bench;

import io.ferry.config.S3EndpointConfig;
import io.ferry.demo.Demo;
import io.ferry.demo.S3ProxyProcess;
import io.ferry.demo.SeedData;
import io.ferry.source.S3Clients;
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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The benchmark {@code bench/run.sh} drives: two S3Proxy endpoints (source A, destination B) on loopback, optionally
 * behind {@link WanEmulator}s, seeded with the workloads; then Ferry and the peer tools copy each workload for each
 * task, timed by {@code /usr/bin/time} (wall, CPU, peak RSS), every copy verified by SHA-256; results appended to
 * a CSV and a markdown table.
 *
 * <p>Selection by environment: FERRY_BENCH_WORKLOADS (large,small,mixed), FERRY_BENCH_TASKS (files,other,same),
 * FERRY_BENCH_MODES (direct,wan), FERRY_BENCH_TOOLS (ferry,raw,rclone,rclone-tuned,aws,aws-tuned,s3cmd),
 * FERRY_BENCH_SCALE (1.0 = the sizes of issue 4), FERRY_BENCH_WAN_MBPS (40), FERRY_BENCH_WAN_DELAY_MS (10),
 * FERRY_BENCH_RESULTS (the CSV; default bench/results/results.csv).
 */
public final class Bench {
  private static final long MIB = 1L << 20;
  private static final String ID = "bench";
  private static final String SECRET = "bench-secret-key";

  private final Path home;
  private final Path work;
  private final List<String> rows = new ArrayList<>();
  private S3ProxyProcess a;
  private S3ProxyProcess b;

  private Bench(Path home, Path work) {
    this.home = home;
    this.work = work;
  }

  record Endpoints(String source, String destination) {}

  record Measured(double wall, double cpu, long maxRssKiB, int exit, String log) {}

  public static void main(String[] args) throws Exception {
    Path home = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
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
    List<SeedData.Spec> small = new ArrayList<>();
    for (int i = 0; i < (int) (2000 * scale); i++) small.add(new SeedData.Spec(String.format("small/%02d/o-%05d", i % 20, i), 256 * 1024, 10 + i));
    w.put("small", small);
    List<SeedData.Spec> mixed = new ArrayList<>();
    mixed.add(new SeedData.Spec("mixed/big.bin", gib, 3));
    for (int i = 0; i < (int) (1000 * scale); i++) mixed.add(new SeedData.Spec(String.format("mixed/%02d/m-%05d", i % 10, i), MIB, 5000 + i));
    w.put("mixed", mixed);
    return w;
  }

  private void run() throws Exception {
    double scale = Double.parseDouble(System.getenv().getOrDefault("FERRY_BENCH_SCALE", "1.0"));
    double wanMbps = Double.parseDouble(System.getenv().getOrDefault("FERRY_BENCH_WAN_MBPS", "40"));
    long wanDelay = Long.parseLong(System.getenv().getOrDefault("FERRY_BENCH_WAN_DELAY_MS", "10"));
    Files.createDirectories(work);
    Path csv = Path.of(System.getenv().getOrDefault("FERRY_BENCH_RESULTS", home.resolve("bench/results/results.csv").toString()));
    Files.createDirectories(csv.getParent());
    if (!Files.exists(csv)) {
      Files.writeString(csv, "when,mode,workload,task,tool,bytes,objects,wall_s,sync_s,mb_per_s,mb_per_s_with_sync,cpu_s,cpu_s_per_gb,max_rss_mib,verified,note\n");
    }
    try (S3ProxyProcess sa = S3ProxyProcess.start(work.resolve("a-data"), ID, SECRET);
        S3ProxyProcess sb = S3ProxyProcess.start(work.resolve("b-data"), ID, SECRET);
        WanEmulator wanA = new WanEmulator(0, sa.port(), wanMbps, wanDelay);
        WanEmulator wanB = new WanEmulator(0, sb.port(), wanMbps, wanDelay)) {
      a = sa;
      b = sb;
      S3Client clientA = S3Clients.control(S3EndpointConfig.withKeys(sa.endpoint(), "us-east-1", ID, SECRET));
      Map<String, List<SeedData.Spec>> all = workloads(scale);
      Map<String, Map<String, String>> digests = new LinkedHashMap<>();
      for (String workload : select("FERRY_BENCH_WORKLOADS", "large,small,mixed")) {
        long t = System.nanoTime();
        digests.put(workload, SeedData.upload(clientA, "src-" + workload, all.get(workload)));
        System.out.printf("seeded %s: %d objects in %.1f s%n", workload, all.get(workload).size(), (System.nanoTime() - t) / 1e9);
      }
      for (String mode : select("FERRY_BENCH_MODES", "direct,wan")) {
        Endpoints endpoints = mode.equals("wan")
            ? new Endpoints("http://127.0.0.1:" + wanA.port(), "http://127.0.0.1:" + wanB.port())
            : new Endpoints(sa.endpoint(), sb.endpoint());
        for (String workload : digests.keySet()) {
          long bytes = all.get(workload).stream().mapToLong(SeedData.Spec::size).sum();
          for (String task : select("FERRY_BENCH_TASKS", "files,other,same")) {
            for (String tool : select("FERRY_BENCH_TOOLS", "raw,ferry,rclone,rclone-tuned,aws,aws-tuned,s3cmd")) {
              runOne(mode, endpoints, workload, task, tool, bytes, digests.get(workload), csv);
            }
          }
        }
      }
    }
    writeMarkdown(csv, csv.resolveSibling(csv.getFileName().toString().replace(".csv", ".md")));
  }

  private void runOne(String mode, Endpoints endpoints, String workload, String task, String tool, long bytes,
      Map<String, String> expected, Path csv) throws Exception {
    String bucket = "src-" + workload;
    String dstBucket = "dst-" + workload + "-" + tool + "-" + mode + "-" + System.nanoTime() % 100000;
    Path dir = work.resolve("out").resolve(mode + "-" + workload + "-" + tool);
    Demo.deleteTree(work.resolve("out"));
    Files.createDirectories(dir);
    boolean toFiles = task.equals("files");
    boolean same = task.equals("same");
    String dstEndpoint = same ? endpoints.source() : endpoints.destination();
    S3Client dstClient = S3Clients.control(S3EndpointConfig.withKeys(same ? a.endpoint() : b.endpoint(), "us-east-1", ID, SECRET));
    if (!toFiles) dstClient.createBucket(r -> r.bucket(dstBucket));
    List<String> command = command(tool, task, endpoints.source(), bucket, dstEndpoint, dstBucket, dir);
    if (command == null) return; // the tool cannot do this task (e.g. one endpoint only)
    System.out.printf("%s %s %s %s ... ", mode, workload, task, tool);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("RCLONE_CONFIG_SRC_ENDPOINT", endpoints.source());
    env.put("RCLONE_CONFIG_DST_ENDPOINT", endpoints.destination());
    Path awsConfig = work.resolve("aws-config");
    write(awsConfig, "[default]\n" + (tool.equals("aws-tuned")
        ? "s3 =\n  max_concurrent_requests = 32\n  multipart_chunksize = 64MB\n  multipart_threshold = 64MB\n" : ""));
    env.put("AWS_CONFIG_FILE", awsConfig.toString());
    Measured m = measure(command, env);
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
      Map<String, String> actual = toFiles ? fileDigests(dir, workload) : bucketDigests(dstClient, dstBucket, workload);
      verified = actual.equals(new TreeMap<>(expected)) ? "yes" : "NO (" + actual.size() + "/" + expected.size() + " objects)";
    }
    String note = tool.equals("ferry") ? ferryStages() : "";
    double mbps = bytes / 1e6 / m.wall();
    double cpuPerGb = m.cpu() / (bytes / 1e9);
    String row = String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%d,%d,%.2f,%.2f,%.1f,%.1f,%.1f,%.2f,%d,%s,%s",
        Instant.now(), mode, workload, task, tool, bytes, expected.size(), m.wall(), sync, mbps,
        bytes / 1e6 / (m.wall() + sync), m.cpu(), cpuPerGb, m.maxRssKiB() / 1024, verified, note);
    Files.writeString(csv, row + "\n", java.nio.file.StandardOpenOption.APPEND);
    System.out.printf(Locale.ROOT, "%.1f s, %.1f MB/s, cpu %.1f s, rss %d MiB, verified %s%n", m.wall(), mbps, m.cpu(),
        m.maxRssKiB() / 1024, verified);
    if (m.exit() != 0) System.out.println(m.log().lines().reduce("", (x, y) -> x.length() > 3000 ? x : x + "\n    " + y));
    if (!toFiles) deleteBucket(dstClient, dstBucket);
  }

  private List<String> command(String tool, String task, String src, String bucket, String dst, String dstBucket, Path dir) {
    boolean files = task.equals("files");
    boolean other = task.equals("other");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = home.resolve("target/classes") + ":" + read(home.resolve("target/local-classpath.txt"));
    return switch (tool) {
      case "raw" -> task.equals("same") ? null : List.of(java, "-cp", classpath, RawRangedReader.class.getName(), src, bucket, "",
          "16", "8");
      case "ferry" -> {
        Path conf = work.resolve("ferry-" + task + ".conf");
        String destination = files ? "destination.path = \"" + dir + "\""
            : "destination { type = s3, endpoint = \"" + dst + "\", bucket = " + dstBucket
                + ", credentials { access-key-id = " + ID + ", secret-access-key = ${?BENCH_SECRET} } }";
        write(conf, "ferry { job.name = bench, report.path = \"" + work.resolve("reports") + "\", copy.skip-unchanged = false\n"
            + "source { endpoint = \"" + src + "\", bucket = " + bucket + ", credentials { access-key-id = " + ID
            + ", secret-access-key = ${?BENCH_SECRET} } }\n" + destination + "\n}\n");
        yield List.of("bash", home.resolve("jobs/migrate.sh").toString(), conf.toString());
      }
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

  private Measured measure(List<String> command, Map<String, String> extra) throws Exception {
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
    env.put("FERRY_DRIVER_OPTS", "-Xmx2g");
    env.putAll(extra);
    Process p = builder.start();
    if (!p.waitFor(30, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return new Measured(1800, 0, 0, -1, "timed out");
    }
    String[] t = Files.readString(timeFile).trim().lines().reduce((x, y) -> y).orElse("0 0 0 0").split(" ");
    return new Measured(Double.parseDouble(t[0]), Double.parseDouble(t[1]) + Double.parseDouble(t[2]), Long.parseLong(t[3]),
        p.exitValue(), Files.readString(log));
  }

  /** Where a Ferry run's time went, from its newest summary.json: the copy stage against the whole run. */
  private String ferryStages() throws IOException {
    Path reports = work.resolve("reports/bench");
    if (!Files.isDirectory(reports)) return "";
    try (var runs = Files.list(reports)) {
      Path newest = runs.max(java.util.Comparator.comparing(Path::getFileName)).orElse(null);
      if (newest == null || !Files.exists(newest.resolve("summary.json"))) return "";
      var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(newest.resolve("summary.json").toFile());
      return String.format(Locale.ROOT, "copy stage %.1f s (%.0f MB/s) of a %.1f s run", json.at("/throughput/copyStageSeconds").asDouble(),
          json.at("/throughput/aggregateMBps").asDouble(), json.at("/wallSeconds").asDouble());
    }
  }

  private Map<String, String> fileDigests(Path dir, String workload) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.filter(Files::isRegularFile).toList()) {
        String name = dir.relativize(p).toString();
        if (p.getFileName().toString().startsWith(".ferry-")) continue;
        out.put(name.startsWith(workload + "/") ? name : workload + "/" + name, Demo.sha256(p));
      }
    }
    return out;
  }

  private static Map<String, String> bucketDigests(S3Client s3, String bucket, String workload) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (S3Object o : s3.listObjectsV2Paginator(r -> r.bucket(bucket)).contents()) {
      MessageDigest sha = SeedData.sha256();
      try (InputStream in = s3.getObject(r -> r.bucket(bucket).key(o.key()))) {
        byte[] buffer = new byte[1 << 20];
        for (int n; (n = in.read(buffer)) > 0; ) sha.update(buffer, 0, n);
      }
      String key = o.key().startsWith(workload + "/") ? o.key() : workload + "/" + o.key();
      out.put(key, HexFormat.of().formatHex(sha.digest()));
    }
    return out;
  }

  private static void deleteBucket(S3Client s3, String bucket) {
    for (S3Object o : s3.listObjectsV2Paginator(r -> r.bucket(bucket)).contents()) s3.deleteObject(r -> r.bucket(bucket).key(o.key()));
    s3.deleteBucket(r -> r.bucket(bucket));
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
      Files.writeString(p, s);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void writeMarkdown(Path csv, Path md) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    StringBuilder out = new StringBuilder("| mode | workload | task | tool | MB/s | MB/s incl. sync | wall s | CPU s/GB | peak RSS MiB | verified |\n"
        + "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      out.append(String.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", f[1], f[2], f[3], f[4], f[9],
          f[3].equals("files") && !f[4].equals("raw") ? f[10] : "", f[7], f[12], f[13], f[14]));
    }
    Files.writeString(md, out.toString());
  }
}
