package io.ferry.bench;

import io.ferry.config.S3EndpointConfig;
import io.ferry.support.S3ProxyProcess;
import io.ferry.store.ByteRange;
import io.ferry.store.s3.S3Clients;
import io.ferry.store.s3.http.SignedRequests;
import io.ferry.support.TestS3;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.auth.aws.scheme.AwsV4AuthScheme;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.scheme.AuthScheme;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignRequest;
import software.amazon.awssdk.http.auth.spi.signer.AsyncSignedRequest;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignRequest;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.IdentityProvider;
import software.amazon.awssdk.identity.spi.IdentityProviders;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * Ferry's own path for bulk requests ({@code SignedRequests} on its {@code BulkHttpClient}, aws-chunked bodies encoded
 * by {@code SignedChunks}) against the SDK's S3 client on each of its sync HTTP clients (Apache 4, Apache 5, CRT),
 * signed and unsigned: client CPU-seconds per GB and MB/s, for large ranged GETs and UploadParts and for small GETs
 * and PutObjects, against one S3Proxy on loopback. Each variant runs in a JVM of its own (a warm-up pass, then the
 * measured pass), the process's CPU time (every thread: GC, JIT, native I/O threads) taken around the measured pass.
 *
 * <p>{@code TransportBench <home>} runs every variant FERRY_TRANSPORT_REPEAT (3) times in turns and writes
 * bench/results/transport.csv and transport.md; {@code TransportBench --run <variant> <workload> <endpoint>} is one
 * child.
 */
public final class TransportBench {
  private static final String ID = "bench";
  private static final String SECRET = "bench-secret-key";
  private static final String BUCKET = "transport";
  private static final long MIB = 1L << 20;
  static final List<String> VARIANTS = List.of("ferry", "ferry-unsigned", "sdk-apache4", "sdk-apache5", "sdk-apache5-unsigned",
      "sdk-crt", "sdk-crt-unsigned");
  static final List<String> WORKLOADS = List.of("get-large", "put-large", "get-small", "put-small");
  private static final int THREADS = 16;

  private TransportBench() {}

  /** A workload: requests of {@code size} bytes, {@code count} of them measured (a tenth more first, to warm up). */
  record Workload(String name, long size, int count) {
    boolean get() {
      return name.startsWith("get");
    }
  }

  static Workload workload(String name) {
    return switch (name) {
      case "get-large", "put-large" -> new Workload(name, 32 * MIB, 32); // 1 GiB
      case "get-small", "put-small" -> new Workload(name, 256 << 10, 2000); // 0.5 GiB in 2,000 requests
      default -> throw new IllegalArgumentException(name);
    };
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--run")) {
      System.out.println(run(args[1], workload(args[2]), args[3]));
      System.exit(0);
    }
    Path home = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
    orchestrate(home);
    System.exit(0);
  }

  private static void orchestrate(Path home) throws Exception {
    int repeat = Integer.parseInt(System.getenv().getOrDefault("FERRY_TRANSPORT_REPEAT", "3"));
    List<String> variants = List.of(System.getenv().getOrDefault("FERRY_TRANSPORT_VARIANTS", String.join(",", VARIANTS)).split(","));
    List<String> workloads = List.of(System.getenv().getOrDefault("FERRY_TRANSPORT_WORKLOADS", String.join(",", WORKLOADS)).split(","));
    Path work = home.resolve("target/bench-transport");
    Path csv = home.resolve("bench/results/transport.csv");
    String session =
        java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(java.time.ZoneOffset.UTC).format(Instant.now());
    if (!Files.exists(csv)) Files.writeString(csv,
        "session,variant,workload,requests,bytes,wall_s,cpu_s,cpu_s_per_gb,mb_per_s,cpu_ms_per_request,retried\n");
    io.ferry.demo.Demo.deleteTree(work); // a fresh server: the seeded objects are this session's
    try (S3ProxyProcess server = S3ProxyProcess.start(work.resolve("data"), ID, SECRET)) {
      S3Client s3 = TestS3.client(S3EndpointConfig.withKeys(server.endpoint(), "us-east-1", ID, SECRET));
      seed(s3);
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      for (int round = 0; round < repeat; round++) {
        for (String workload : workloads) {
          for (String variant : variants) {
            List<String> command = new ArrayList<>(List.of(java, "-Xmx1g", "-XX:+UseParallelGC", "-cp",
                System.getProperty("java.class.path"),
                TransportBench.class.getName(), "--run", variant, workload, server.endpoint()));
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String line = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() != 0) throw new IllegalStateException(variant + " " + workload + " failed");
            String row = session + "," + line.lines().reduce((a, b) -> b).orElseThrow();
            System.out.println(row);
            Files.writeString(csv, row + "\n", StandardOpenOption.APPEND);
          }
        }
      }
    }
    writeMarkdown(csv, home.resolve("bench/results/transport.md"), session);
  }

  /** A 1 GiB object (ranged GETs) and 2,200 of 256 KiB (small GETs), random bytes. */
  private static void seed(S3Client s3) {
    s3.createBucket(b -> b.bucket(BUCKET));
    SplittableRandom random = new SplittableRandom(7);
    byte[] block = new byte[(int) (32 * MIB)];
    for (int i = 0; i < block.length; i += 8) {
      long v = random.nextLong();
      for (int j = 0; j < 8; j++) block[i + j] = (byte) (v >>> (8 * j));
    }
    for (String key : List.of("large/a")) {
      String upload = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
      List<software.amazon.awssdk.services.s3.model.CompletedPart> parts = new ArrayList<>();
      for (int part = 1; part <= 32; part++) {
        int n = part;
        String etag = s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(upload).partNumber(n), RequestBody.fromBytes(block)).eTag();
        parts.add(software.amazon.awssdk.services.s3.model.CompletedPart.builder().partNumber(n).eTag(etag).build());
      }
      s3.completeMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts)));
    }
    byte[] small = java.util.Arrays.copyOf(block, 256 << 10);
    for (int i = 0; i < 2200; i++) {
      String key = String.format("small/%04d", i);
      small[0] = (byte) i;
      s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(small));
    }
  }

  /** One variant on one workload, in this JVM: a warm-up pass, then the measured pass; a CSV row without session. */
  static String run(String variant, Workload w, String endpoint) throws Exception {
    Transport t = transport(variant, endpoint);
    String uploadId = w.get() ? null : t.openUpload("put/" + variant);
    pass(t, w, Math.max(4, w.count() / 10), uploadId);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    long bytes = pass(t, w, w.count(), uploadId);
    double wall = (System.nanoTime() - t0) / 1e9;
    double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
    if (uploadId != null) t.abortUpload("put/" + variant, uploadId);
    return String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%.3f,%.3f,%.1f,%.3f,%d", variant, w.name(), w.count(), bytes, wall, cpu,
        cpu / (bytes / 1e9), bytes / 1e6 / wall, cpu * 1000 / w.count(), RETRIES.get());
  }

  private static long pass(Transport t, Workload w, int count, String uploadId) throws Exception {
    AtomicLong bytes = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int n = i;
        futures.add(pool.submit(() -> {
          try {
            request(t, w, n, uploadId, bytes);
          } catch (Exception e) { // one retry for every variant (the CRT client's pool met a connection the server had closed)
            RETRIES.incrementAndGet();
            request(t, w, n, uploadId, bytes);
          }
          return null;
        }));
      }
      for (Future<?> f : futures) f.get();
    } finally {
      pool.shutdownNow();
    }
    return bytes.get();
  }

  private static final AtomicLong RETRIES = new AtomicLong();

  /** One request of the workload; its bytes are counted once it succeeded. */
  private static void request(Transport t, Workload w, int n, String uploadId, AtomicLong bytes) throws IOException {
    if (w.get()) {
      byte[] buffer = BUFFER.get();
      String key = w.size() == 32 * MIB ? "large/a" : String.format("small/%04d", n % 2200);
      long offset = w.size() == 32 * MIB ? (n % 32) * w.size() : 0;
      long read = 0;
      try (InputStream in = t.get(key, new ByteRange(offset, w.size()))) {
        for (int r; (r = in.read(buffer)) > 0; ) read += r;
      }
      bytes.addAndGet(read);
    } else if (uploadId != null && w.size() >= 5 * MIB) {
      t.uploadPart("put/" + t.name(), uploadId, 1 + n % 10_000, new Synthetic(w.size()), w.size());
      bytes.addAndGet(w.size());
    } else {
      t.put(String.format("put-small/%s/%05d", t.name(), n), new Synthetic(w.size()), w.size());
      bytes.addAndGet(w.size());
    }
  }

  private static final ThreadLocal<byte[]> BUFFER = ThreadLocal.withInitial(() -> new byte[1 << 20]);
  private static final byte[] PATTERN = new byte[1 << 20];

  static {
    new SplittableRandom(3).nextBytes(PATTERN);
  }

  /** {@code length} bytes of a fixed random pattern, copied out in the reader's chunks (cheap, the same for every variant). */
  static final class Synthetic extends InputStream {
    private long remaining;
    private int at;

    Synthetic(long length) {
      this.remaining = length;
    }

    @Override
    public int read() {
      if (remaining <= 0) return -1;
      remaining--;
      int b = PATTERN[at] & 0xff;
      at = (at + 1) % PATTERN.length;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (remaining <= 0) return -1;
      int n = (int) Math.min(Math.min(len, remaining), PATTERN.length - at);
      System.arraycopy(PATTERN, at, b, off, n);
      at = (at + n) % PATTERN.length;
      remaining -= n;
      return n;
    }
  }

  /** What the benchmark asks of a way of sending requests. */
  interface Transport {
    String name();

    InputStream get(String key, ByteRange range) throws IOException;

    void put(String key, InputStream body, long length) throws IOException;

    String openUpload(String key);

    void uploadPart(String key, String uploadId, int part, InputStream body, long length) throws IOException;

    void abortUpload(String key, String uploadId);
  }

  static Transport transport(String variant, String endpoint) {
    boolean unsigned = variant.endsWith("-unsigned");
    S3EndpointConfig config = S3EndpointConfig.withKeys(endpoint, "us-east-1", ID, SECRET).withUnsignedPayload(unsigned);
    S3Client control = TestS3.client(config);
    if (variant.startsWith("ferry")) {
      SignedRequests requests = S3Clients.requests(config, THREADS * 2, Duration.ofSeconds(60));
      return new Transport() {
        public String name() {
          return variant;
        }

        public InputStream get(String key, ByteRange range) throws IOException {
          return requests.get(BUCKET, key, range, "");
        }

        public void put(String key, InputStream body, long length) throws IOException {
          requests.put(BUCKET, key, Map.of(), Map.of("Content-Type", "application/octet-stream"), body, length);
        }

        public String openUpload(String key) {
          return control.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
        }

        public void uploadPart(String key, String uploadId, int part, InputStream body, long length) throws IOException {
          Map<String, String> query = new LinkedHashMap<>();
          query.put("partNumber", Integer.toString(part));
          query.put("uploadId", uploadId);
          requests.put(BUCKET, key, query, Map.of(), body, length);
        }

        public void abortUpload(String key, String uploadId) {
          control.abortMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(uploadId));
        }
      };
    }
    SdkHttpClient http = switch (variant.replace("-unsigned", "")) {
      case "sdk-apache4" -> ApacheHttpClient.builder().maxConnections(THREADS * 2).socketTimeout(Duration.ofSeconds(60)).build();
      case "sdk-apache5" -> Apache5HttpClient.builder().maxConnections(THREADS * 2).socketTimeout(Duration.ofSeconds(60)).build();
      case "sdk-crt" -> AwsCrtHttpClient.builder().maxConcurrency(THREADS * 2)
          .connectionHealthConfiguration(h -> h.minimumThroughputInBps(1L).minimumThroughputTimeout(Duration.ofSeconds(60))).build();
      default -> throw new IllegalArgumentException(variant);
    };
    var builder = S3Client.builder().httpClient(http).region(Region.US_EAST_1).endpointOverride(URI.create(endpoint))
        .forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ID, SECRET)))
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
    if (unsigned) builder.putAuthScheme(UNSIGNED_OVER_HTTP);
    if (variant.startsWith("sdk-crt")) builder.serviceConfiguration(c -> c.expectContinueEnabled(false)); // CRT never waits for 100
    S3Client s3 = builder.build();
    return new Transport() {
      public String name() {
        return variant;
      }

      public InputStream get(String key, ByteRange range) {
        return s3.getObject(b -> b.bucket(BUCKET).key(key).range(range.httpRange()), ResponseTransformer.toInputStream());
      }

      public void put(String key, InputStream body, long length) {
        s3.putObject(b -> b.bucket(BUCKET).key(key).contentLength(length), RequestBody.fromContentProvider(() -> body, length,
            "application/octet-stream"));
      }

      public String openUpload(String key) {
        return s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
      }

      public void uploadPart(String key, String uploadId, int part, InputStream body, long length) {
        s3.uploadPart(b -> b.bucket(BUCKET).key(key).uploadId(uploadId).partNumber(part).contentLength(length),
            RequestBody.fromContentProvider(() -> body, length, "application/octet-stream"));
      }

      public void abortUpload(String key, String uploadId) {
        s3.abortMultipartUpload(b -> b.bucket(BUCKET).key(key).uploadId(uploadId));
      }
    };
  }

  /** SigV4 as over https (the scheme is not signed), so an http request's body goes UNSIGNED-PAYLOAD, as Ferry's unsigned-payload does. */
  private static final AuthScheme<AwsCredentialsIdentity> UNSIGNED_OVER_HTTP = new AuthScheme<>() {
    private final AwsV4HttpSigner delegate = AwsV4HttpSigner.create();

    @Override
    public String schemeId() {
      return AwsV4AuthScheme.SCHEME_ID;
    }

    @Override
    public IdentityProvider<AwsCredentialsIdentity> identityProvider(IdentityProviders providers) {
      return providers.identityProvider(AwsCredentialsIdentity.class);
    }

    @Override
    public HttpSigner<AwsCredentialsIdentity> signer() {
      return new HttpSigner<>() {
        @Override
        public SignedRequest sign(SignRequest<? extends AwsCredentialsIdentity> request) {
          SdkHttpRequest http = request.request();
          if (!"http".equals(http.protocol())) return delegate.sign(request);
          String host = SdkHttpUtils.isUsingStandardPort("http", http.port()) ? http.host() : http.host() + ":" + http.port();
          SdkHttpRequest https = http.toBuilder().putHeader("Host", host).protocol("https").port(http.port()).build();
          SignedRequest signed = delegate.sign(request.toBuilder().request(https).build());
          return signed.toBuilder().request(signed.request().toBuilder().protocol("http").port(http.port()).build()).build();
        }

        @Override
        public CompletableFuture<AsyncSignedRequest> signAsync(AsyncSignRequest<? extends AwsCredentialsIdentity> request) {
          return delegate.signAsync(request);
        }
      };
    }
  };

  /** Medians per variant and workload of the session's rows, and each against Ferry's path. */
  static void writeMarkdown(Path csv, Path md, String session) throws IOException {
    Map<String, Map<String, List<double[]>>> rows = new TreeMap<>();
    for (String line : Files.readAllLines(csv).subList(1, Files.readAllLines(csv).size())) {
      String[] f = line.split(",");
      if (!f[0].equals(session)) continue;
      rows.computeIfAbsent(f[2], k -> new LinkedHashMap<>()).computeIfAbsent(f[1], k -> new ArrayList<>())
          .add(new double[] {Double.parseDouble(f[7]), Double.parseDouble(f[8]), Double.parseDouble(f[9])});
    }
    StringBuilder out = new StringBuilder("# Transports: Ferry's bulk path against the SDK's clients\n\n");
    out.append("Session ").append(session)
        .append(" (`bench/transport.sh`): medians of the session's runs; client CPU only (the server's is apart).\n\n");
    out.append("| workload | variant | runs | CPU-s per GB | MB/s | CPU-ms per request | CPU per GB vs ferry (same signing) |\n");
    out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    for (var w : rows.entrySet()) {
      for (var v : w.getValue().entrySet()) {
        double cpu = median(v.getValue(), 0);
        String reference = v.getKey().endsWith("-unsigned") ? "ferry-unsigned" : "ferry";
        List<double[]> ref = w.getValue().get(reference);
        String vs = ref == null ? "" : String.format(Locale.ROOT, "%.2f×", cpu / median(ref, 0));
        out.append(String.format(Locale.ROOT, "| %s | %s | %d | %.3f | %.1f | %.3f | %s |%n", w.getKey(), v.getKey(), v.getValue().size(),
            cpu, median(v.getValue(), 1), median(v.getValue(), 2), vs));
      }
    }
    Files.writeString(md, out.toString());
  }

  private static double median(List<double[]> values, int column) {
    double[] sorted = values.stream().mapToDouble(v -> v[column]).sorted().toArray();
    return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  }
}
