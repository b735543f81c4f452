package io.ferry.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP/1.1 proxy on loopback in front of an S3 server that injects the faults of real networks and services into
 * chosen requests: it reads each request's head to know its kind (a ranged GET, an UploadPart, a
 * CompleteMultipartUpload, ...), relays bytes unchanged otherwise (so SigV4 signatures stay valid), and for the
 * requests a rule picks answers an error itself (503 SlowDown, 500, 403), resets the connection before or after the
 * server acted, stops relaying mid-body (a stall), or flips a byte of the response body.
 */
public final class FaultProxy implements AutoCloseable {
  /** What a request asks of the S3 service. */
  public enum Kind {
    HEAD_BUCKET, LIST_OBJECTS, HEAD_OBJECT, GET_OBJECT, PUT_OBJECT, COPY_OBJECT, CREATE_UPLOAD, UPLOAD_PART, UPLOAD_PART_COPY,
    COMPLETE_UPLOAD, ABORT_UPLOAD, LIST_PARTS, LIST_UPLOADS, RESTORE_OBJECT, OTHER
  }

  /** What happens to a request a rule picks. */
  public sealed interface Fault {
    /** Answered by the proxy with this status and S3 error code; the server never sees the request. */
    record Status(int status, String code) implements Fault {}

    /** Answered by the proxy with 200 OK and an S3 error document in the body (as S3 may answer a Complete or a copy). */
    record OkWithError(String code) implements Fault {}

    /** The connection is reset when the request arrives; the server never sees it. */
    record ResetBeforeForward() implements Fault {}

    /** The connection is reset once the client has sent this many bytes of the request body. */
    record ResetAfterRequestBytes(long bytes) implements Fault {}

    /** The server acts on the request; the connection is reset before its answer reaches the client. */
    record LoseResponse() implements Fault {}

    /** The connection is reset after this many bytes of the response body (a body no longer than that passes whole). */
    record ResetAfterResponseBytes(long bytes) implements Fault {}

    /** The response stops after this many body bytes; the connection stays open, silent, until the client leaves. */
    record StallAfterResponseBytes(long bytes) implements Fault {}

    /** The response body's byte at this offset arrives inverted. */
    record FlipResponseByte(long offset) implements Fault {}

    /** The request body's byte at this offset (of its payload: inside the chunks of a chunked body) reaches the server inverted. */
    record FlipRequestByte(long offset) implements Fault {}

    /** {@code action} runs before the request is forwarded (a source object changed while a copy reads it). */
    record Before(Runnable action) implements Fault {}

    /** Answered by the proxy with this status, these headers and no body (a store's answer no local server gives). */
    record Reply(int status, Map<String, String> headers) implements Fault {}

    /** The server acts on the request; its answer reaches the client with these headers added. */
    record AddHeaders(Map<String, String> headers) implements Fault {}

    static Fault slowDown() {
      return new Status(503, "SlowDown");
    }

    static Fault internalError() {
      return new Status(500, "InternalError");
    }
  }

  /**
   * Decides a request's fault from the request itself and state of its own (a store's archive tier): consulted before
   * the rules; null lets them decide.
   */
  @FunctionalInterface
  public interface Decider {
    Fault decide(Kind kind, String target, Map<String, String> headers);
  }

  /**
   * Every {@code every}-th request of {@code kind} whose path holds {@code path} gets {@code fault}, {@code remaining}
   * times (negative: for ever).
   */
  private static final class Rule {
    final Kind kind;
    final String path;
    final Fault fault;
    final int every;
    int remaining;
    int seen;

    Rule(Kind kind, String path, Fault fault, int remaining, int every) {
      this.kind = kind;
      this.path = path;
      this.fault = fault;
      this.remaining = remaining;
      this.every = every;
    }
  }

  private record Pending(Kind kind, String method, Fault fault) {}

  private final ServerSocket server;
  private final int targetPort;
  private final List<Rule> rules = new ArrayList<>();
  private final Map<Kind, Integer> seen = new EnumMap<>(Kind.class);
  private final Map<Class<?>, Integer> injected = new LinkedHashMap<>();
  private final StringBuffer requests = new StringBuffer();
  private final List<Socket> open = new ArrayList<>();
  private Decider decider;

  public FaultProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "fault-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** A proxy in front of the server at {@code endpoint} ("http://127.0.0.1:port"). */
  public static FaultProxy before(String endpoint) throws IOException {
    return new FaultProxy(Integer.parseInt(endpoint.replaceAll(".*:", "")));
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** The next {@code times} requests of {@code kind} get {@code fault}. */
  public synchronized FaultProxy inject(Kind kind, Fault fault, int times) {
    return inject(kind, "", fault, times);
  }

  /** The next {@code times} requests of {@code kind} whose path (URL-encoded, as sent) holds {@code path} get {@code fault}. */
  public synchronized FaultProxy inject(Kind kind, String path, Fault fault, int times) {
    rules.add(new Rule(kind, path, fault, times, 1));
    return this;
  }

  /** Every {@code every}-th request of {@code kind} gets {@code fault}, until {@link #clear}. */
  public synchronized FaultProxy injectEvery(Kind kind, Fault fault, int every) {
    rules.add(new Rule(kind, "", fault, -1, every));
    return this;
  }

  /** Every request of {@code kind} gets {@code fault}, until {@link #clear}. */
  public synchronized FaultProxy injectAlways(Kind kind, Fault fault) {
    return injectEvery(kind, fault, 1);
  }

  /** Every request of every kind gets {@code fault}, until {@link #clear} (credentials revoked, a service down). */
  public synchronized FaultProxy injectAll(Fault fault) {
    for (Kind kind : Kind.values()) injectAlways(kind, fault);
    return this;
  }

  /** Requests {@code decider} gives a fault get it, before any rule is asked. */
  public synchronized FaultProxy decide(Decider decider) {
    this.decider = decider;
    return this;
  }

  /** No more faults: everything passes. */
  public synchronized void clear() {
    rules.clear();
  }

  /** Requests of {@code kind} that reached the proxy. */
  public synchronized int seen(Kind kind) {
    return seen.getOrDefault(kind, 0);
  }

  /** Faults of this type injected so far. */
  public synchronized int injected(Class<? extends Fault> type) {
    return injected.getOrDefault(type, 0);
  }

  /** The request heads clients sent, one per line block, as ISO-8859-1 text (bodies left out). */
  public String requests() {
    return requests.toString();
  }

  private synchronized Fault pick(Kind kind, String target, Map<String, String> headers) {
    seen.merge(kind, 1, Integer::sum);
    Fault decided = decider == null ? null : decider.decide(kind, target, headers);
    if (decided != null) {
      injected.merge(decided.getClass(), 1, Integer::sum);
      return decided;
    }
    for (Iterator<Rule> i = rules.iterator(); i.hasNext(); ) {
      Rule rule = i.next();
      if (rule.kind != kind || !target.contains(rule.path)) continue;
      if (++rule.seen % rule.every != 0) continue;
      if (rule.remaining > 0 && --rule.remaining == 0) i.remove();
      injected.merge(rule.fault.getClass(), 1, Integer::sum);
      return rule.fault;
    }
    return null;
  }

  /** A fault picked for a response it could not apply to (a body shorter than its cut) is not counted. */
  private synchronized void spared(Fault fault) {
    injected.merge(fault.getClass(), -1, Integer::sum);
  }

  static Kind classify(String method, String target, Map<String, String> headers) {
    int question = target.indexOf('?');
    String path = question < 0 ? target : target.substring(0, question);
    String query = question < 0 ? "" : target.substring(question + 1);
    boolean object = path.indexOf('/', 1) > 0 && path.indexOf('/', 1) < path.length() - 1;
    boolean copy = headers.containsKey("x-amz-copy-source");
    boolean upload = query.contains("uploadId=");
    return switch (method) {
      case "HEAD" -> object ? Kind.HEAD_OBJECT : Kind.HEAD_BUCKET;
      case "GET" -> upload ? Kind.LIST_PARTS : query.matches("(.*&)?uploads(=.*|&.*)?") ? Kind.LIST_UPLOADS
          : object ? Kind.GET_OBJECT : Kind.LIST_OBJECTS;
      case "PUT" -> !object ? Kind.OTHER : upload ? (copy ? Kind.UPLOAD_PART_COPY : Kind.UPLOAD_PART) : copy ? Kind.COPY_OBJECT
          : Kind.PUT_OBJECT;
      case "POST" -> upload ? Kind.COMPLETE_UPLOAD : query.matches("(.*&)?uploads(=.*|&.*)?") ? Kind.CREATE_UPLOAD
          : query.matches("(.*&)?restore(=.*|&.*)?") ? Kind.RESTORE_OBJECT : Kind.OTHER;
      case "DELETE" -> upload ? Kind.ABORT_UPLOAD : Kind.OTHER;
      default -> Kind.OTHER;
    };
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
        synchronized (open) {
          open.add(client);
          open.add(upstream);
        }
        BlockingQueue<Pending> pending = new LinkedBlockingQueue<>();
        start("fault-proxy-requests", () -> relayRequests(client, upstream, pending));
        start("fault-proxy-responses", () -> relayResponses(upstream, client, pending));
      } catch (IOException e) {
        // closed
      }
    }
  }

  private static void start(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  /** A request or response head: its first line and headers (names in lower case), and its bytes as received. */
  private record Head(String line, Map<String, String> headers, byte[] bytes) {
    long contentLength() {
      String length = headers.get("content-length");
      return length == null ? -1 : Long.parseLong(length.trim());
    }

    boolean chunked() {
      return headers.getOrDefault("transfer-encoding", "").toLowerCase(Locale.ROOT).contains("chunked");
    }
  }

  /** Reads up to the blank line after the headers; null at a clean end of the stream. */
  private static Head readHead(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int state = 0;
    for (int b; (b = in.read()) >= 0; ) {
      bytes.write(b);
      state = (b == '\r' && (state == 0 || state == 2)) ? state + 1 : (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
      if (state == 4) break;
    }
    if (bytes.size() == 0) return null;
    if (state != 4) throw new IOException("the stream ended inside a head");
    String text = bytes.toString(StandardCharsets.ISO_8859_1);
    String[] lines = text.split("\r\n");
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
    }
    return new Head(lines[0], headers, bytes.toByteArray());
  }

  private void relayRequests(Socket client, Socket upstream, BlockingQueue<Pending> pending) {
    try (InputStream in = client.getInputStream(); OutputStream out = upstream.getOutputStream()) {
      for (Head head; (head = readHead(in)) != null; ) {
        String[] parts = head.line().split(" ");
        Kind kind = classify(parts[0], parts.length > 1 ? parts[1] : "/", head.headers());
        if (requests.length() < (8 << 20)) requests.append(new String(head.bytes(), StandardCharsets.ISO_8859_1));
        Fault fault = pick(kind, parts.length > 1 ? parts[1] : "/", head.headers());
        if (fault instanceof Fault.OkWithError ok) {
          if (!head.headers().getOrDefault("expect", "").equalsIgnoreCase("100-continue")) relayBody(head, in,
              OutputStream.nullOutputStream(), -1);
          answer(client.getOutputStream(), 200, ok.code(), parts[0].equals("HEAD"));
          closeQuietly(client, upstream, false);
          return;
        }
        if (fault instanceof Fault.Status status) {
          // Without 100-continue the body is on its way: read it, so that the client reads the answer.
          if (!head.headers().getOrDefault("expect", "").equalsIgnoreCase("100-continue")) relayBody(head, in,
              OutputStream.nullOutputStream(), -1);
          answer(client.getOutputStream(), status.status(), status.code(), parts[0].equals("HEAD"));
          closeQuietly(client, upstream, false);
          return;
        }
        if (fault instanceof Fault.Reply reply) {
          if (!head.headers().getOrDefault("expect", "").equalsIgnoreCase("100-continue")) relayBody(head, in,
              OutputStream.nullOutputStream(), -1);
          StringBuilder answer = new StringBuilder("HTTP/1.1 " + reply.status() + " Reply\r\nx-amz-request-id: FAULTPROXY\r\n");
          reply.headers().forEach((name, value) -> answer.append(name).append(": ").append(value).append("\r\n"));
          answer.append("Content-Length: 0\r\nConnection: close\r\n\r\n");
          client.getOutputStream().write(answer.toString().getBytes(StandardCharsets.ISO_8859_1));
          client.getOutputStream().flush();
          closeQuietly(client, upstream, false);
          return;
        }
        if (fault instanceof Fault.ResetBeforeForward) {
          closeQuietly(client, upstream, true);
          return;
        }
        if (fault instanceof Fault.Before before) before.action().run();
        pending.put(new Pending(kind, parts[0], fault));
        out.write(head.bytes());
        long resetAt = fault instanceof Fault.ResetAfterRequestBytes r ? r.bytes() : -1;
        long flipAt = fault instanceof Fault.FlipRequestByte f ? f.offset() : -1;
        if (!relayBody(head, in, out, resetAt, flipAt)) {
          closeQuietly(client, upstream, true);
          return;
        }
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // a side went away
    } finally {
      closeQuietly(client, upstream, false);
    }
  }

  /** Relays a message body framed by Content-Length or chunked encoding; false if it was cut at {@code resetAt}. */
  private static boolean relayBody(Head head, InputStream in, OutputStream out, long resetAt) throws IOException {
    return relayBody(head, in, out, resetAt, -1);
  }

  /** As {@link #relayBody(Head, InputStream, OutputStream, long)}, inverting the payload's byte at {@code flipAt} (>= 0). */
  private static boolean relayBody(Head head, InputStream in, OutputStream out, long resetAt, long flipAt) throws IOException {
    if (flipAt >= 0) out = flipping(out, payloadFlip(head, flipAt));
    long length = head.contentLength();
    if (length > 0) return copy(in, out, length, resetAt, 0) == length;
    if (!head.chunked()) return true;
    long sent = 0;
    while (true) { // chunks, then the trailer section up to its blank line
      String size = readLine(in);
      out.write((size + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      long n = Long.parseLong(size.split(";")[0].trim(), 16);
      if (n == 0) break;
      long copied = copy(in, out, n, resetAt, sent);
      sent += copied;
      if (copied != n) return false;
      out.write((readLine(in) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    }
    for (String line; !(line = readLine(in)).isEmpty(); ) out.write((line + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    return true;
  }

  /**
   * Where in the body's bytes the payload's byte {@code offset} lies: for an aws-chunked body (Content-Encoding), past
   * the first chunk's header line, so that the byte flipped is data, not framing.
   */
  private static long payloadFlip(Head head, long offset) {
    boolean awsChunked = head.headers().getOrDefault("content-encoding", "").contains("aws-chunked")
        || head.headers().getOrDefault("x-amz-content-sha256", "").startsWith("STREAMING-");
    if (!awsChunked) return offset;
    // "<hex size>;chunk-signature=<64 hex>\r\n" (or "<hex size>\r\n" unsigned): at most 86 bytes; a first chunk is 128 KiB
    return offset + 90;
  }

  /** An output that inverts the byte at {@code position} of what passes through it. */
  private static OutputStream flipping(OutputStream out, long position) {
    return new java.io.FilterOutputStream(out) {
      private long written;

      @Override
      public void write(int b) throws IOException {
        out.write(written++ == position ? ~b & 0xff : b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        if (position >= written && position < written + len) {
          byte[] copy = java.util.Arrays.copyOfRange(b, off, off + len);
          copy[(int) (position - written)] = (byte) ~copy[(int) (position - written)];
          out.write(copy, 0, len);
        } else {
          out.write(b, off, len);
        }
        written += len;
      }

      @Override
      public void close() {
        // the connection's stream is closed by the relay, not by this view of it
      }
    };
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b; (b = in.read()) >= 0; ) {
      if (b == '\n') break;
      if (b != '\r') line.write(b);
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  /** Copies {@code n} bytes; stops early (returns fewer) once {@code already + copied} reaches {@code cutAt} (>= 0). */
  private static long copy(InputStream in, OutputStream out, long n, long cutAt, long already) throws IOException {
    byte[] buffer = new byte[64 << 10];
    long copied = 0;
    while (copied < n) {
      long limit = n - copied;
      if (cutAt >= 0) limit = Math.min(limit, cutAt - already - copied);
      if (limit <= 0) return copied;
      int r = in.read(buffer, 0, (int) Math.min(buffer.length, limit));
      if (r < 0) throw new IOException("the stream ended inside a body");
      out.write(buffer, 0, r);
      copied += r;
    }
    return copied;
  }

  private void relayResponses(Socket upstream, Socket client, BlockingQueue<Pending> pending) {
    try (InputStream in = upstream.getInputStream(); OutputStream out = client.getOutputStream()) {
      for (Head head; (head = readHead(in)) != null; ) {
        int status = Integer.parseInt(head.line().split(" ")[1]);
        if (status >= 100 && status < 200) { // 100 Continue: the answer to come is still the request's
          out.write(head.bytes());
          out.flush();
          continue;
        }
        Pending request = pending.poll(5, TimeUnit.MINUTES);
        if (request == null) return;
        Fault fault = request.fault();
        if (fault instanceof Fault.LoseResponse) {
          closeQuietly(client, upstream, true);
          return;
        }
        if (fault instanceof Fault.AddHeaders add) {
          StringBuilder extra = new StringBuilder();
          add.headers().forEach((name, value) -> extra.append(name).append(": ").append(value).append("\r\n"));
          byte[] bytes = head.bytes();
          out.write(bytes, 0, bytes.length - 2); // up to the blank line that ends the head
          out.write(extra.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        } else {
          out.write(head.bytes());
        }
        boolean bodyless = request.method().equals("HEAD") || status == 204 || status == 304;
        if (bodyless) {
          out.flush();
          continue;
        }
        if (fault instanceof Fault.ResetAfterResponseBytes r) {
          if (!relayBody(head, in, out, r.bytes())) {
            out.flush();
            closeQuietly(client, upstream, true);
            return;
          }
          // a body no longer than the cut went whole and the connection lives: a reset right after it could discard
          // it in the client's buffer, and the fault did not happen
          spared(fault);
          if (head.contentLength() < 0 && !head.chunked()) in.transferTo(out); // delimited by the connection's end
          out.flush();
          continue;
        }
        if (fault instanceof Fault.StallAfterResponseBytes s) {
          copy(in, out, Math.max(0, head.contentLength()), s.bytes(), 0);
          out.flush();
          while (!client.isClosed() && !server.isClosed()) Thread.sleep(100); // silent until the client hangs up
          return;
        }
        if (fault instanceof Fault.FlipResponseByte flip && head.contentLength() > flip.offset()) {
          copy(in, out, flip.offset(), -1, 0);
          int b = in.read();
          out.write(~b & 0xff);
          copy(in, out, head.contentLength() - flip.offset() - 1, -1, 0);
          out.flush();
          continue;
        }
        if (!relayBody(head, in, out, -1)) return;
        if (head.contentLength() < 0 && !head.chunked()) in.transferTo(out); // delimited by the connection's end
        out.flush();
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      // a side went away
    } finally {
      closeQuietly(client, upstream, false);
    }
  }

  private static void answer(OutputStream out, int status, String code, boolean head) throws IOException {
    String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + code + "</Code><Message>injected by the"
        + " test's fault proxy</Message><RequestId>FAULTPROXY</RequestId></Error>";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String reason = status == 503 ? "Slow Down" : status == 500 ? "Internal Server Error" : status == 200 ? "OK" : "Error";
    String headers = "HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: application/xml\r\nx-amz-request-id: FAULTPROXY\r\n"
        + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n";
    out.write(headers.getBytes(StandardCharsets.ISO_8859_1));
    if (!head) out.write(bytes);
    out.flush();
  }

  /** Closes both sides; with {@code reset}, with RST (as a dropped connection does) rather than FIN. */
  private static void closeQuietly(Socket a, Socket b, boolean reset) {
    for (Socket s : new Socket[] {a, b}) {
      try {
        if (reset && !s.isClosed()) s.setSoLinger(true, 0);
        s.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (open) {
      for (Socket s : open) closeQuietly(s, s, false);
    }
  }
}
