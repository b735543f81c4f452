package io.ferry.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy on loopback in front of an S3 server that injects real network faults: after a set number of response
 * bytes on a connection it resets that connection (RST), as a flaky network or an overloaded server does mid-body.
 * Everything else passes through unchanged, so SigV4 signatures stay valid.
 */
public final class FaultyProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final AtomicInteger resets = new AtomicInteger();
  private final AtomicInteger stalls = new AtomicInteger();
  private final AtomicInteger stallBudget = new AtomicInteger();
  private final AtomicInteger connections = new AtomicInteger();
  private volatile long cutAfterBytes = Long.MAX_VALUE;
  private volatile long cutUploadsAfterBytes = Long.MAX_VALUE;
  private volatile boolean stall;
  private volatile int cutEveryNthConnection = 1;
  private final StringBuffer requests = new StringBuffer();

  public FaultyProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "faulty-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public String endpoint() {
    return "http://127.0.0.1:" + server.getLocalPort();
  }

  /** Resets every {@code nth} new connection once it has carried {@code bytes} response bytes. */
  public void resetAfter(long bytes, int nth) {
    this.cutAfterBytes = bytes;
    this.cutEveryNthConnection = nth;
  }

  /**
   * The first {@code count} connections whose responses pass {@code bytes} stop delivering there (they stay open,
   * silent), as a stuck server or a black-holed route does; later ones pass. Deterministic however the client pools
   * its connections.
   */
  public void stallFirst(long bytes, int count) {
    this.stall = true;
    stallBudget.set(count);
    resetAfter(bytes, 1);
  }

  /** Resets every new connection once the client has sent {@code bytes} request bytes on it (a rejected upload). */
  public void resetUploadsAfter(long bytes) {
    this.cutUploadsAfterBytes = bytes;
  }

  public void passThrough() {
    this.stall = false;
    this.cutAfterBytes = Long.MAX_VALUE;
    this.cutUploadsAfterBytes = Long.MAX_VALUE;
  }

  /** The request bytes clients sent (headers and bodies, as ISO-8859-1 text, first 64 KiB of each read). */
  public String requests() {
    return requests.toString();
  }

  public int stalls() {
    return stalls.get();
  }

  public int resets() {
    return resets.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
        int number = connections.incrementAndGet();
        long limit = number % cutEveryNthConnection == 0 ? cutAfterBytes : Long.MAX_VALUE;
        pump(client, upstream, cutUploadsAfterBytes, "up");
        pump(upstream, client, limit, stall && limit != Long.MAX_VALUE ? "stall" : "down");
      } catch (IOException e) {
        // closed
      }
    }
  }

  private void pump(Socket from, Socket to, long limit, String direction) {
    Thread t = new Thread(() -> {
      byte[] buffer = new byte[64 * 1024];
      long total = 0;
      long cut = limit;
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buffer)) > 0; ) {
          if (total + n > cut && direction.equals("stall") && stallBudget.getAndDecrement() <= 0) {
            cut = Long.MAX_VALUE; // this run's stalls are spent: pass the rest
          }
          if (total + n > cut) {
            out.write(buffer, 0, (int) Math.max(0, cut - total));
            out.flush();
            if (direction.equals("stall")) {
              stalls.incrementAndGet();
              while (!to.isClosed() && !server.isClosed()) {
                try {
                  Thread.sleep(100); // silent until the client gives up and hangs up
                } catch (InterruptedException e) {
                  return;
                }
                if (to.isClosed() || from.isClosed()) break; // the request pump closes both when the client hangs up
              }
              return;
            }
            resets.incrementAndGet();
            to.setSoLinger(true, 0); // close both sides with RST
            from.setSoLinger(true, 0);
            to.close();
            from.close();
            return;
          }
          if (direction.equals("up") && requests.length() < (8 << 20)) {
            requests.append(new String(buffer, 0, Math.min(n, 65536), java.nio.charset.StandardCharsets.ISO_8859_1));
          }
          out.write(buffer, 0, n);
          total += n;
        }
      } catch (IOException e) {
        // the other side went away
      } finally {
        try {
          to.close();
          from.close();
        } catch (IOException ignored) {
          // closing
        }
      }
    }, "faulty-proxy-" + direction);
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
