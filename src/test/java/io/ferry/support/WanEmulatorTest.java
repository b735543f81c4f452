package io.ferry.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The benchmark's WAN emulator in front of a real TCP echo server: bytes pass unchanged both ways, and its delay and
 * cap hold as lower bounds on time (which only a missing delay or cap can break; no upper bound is asserted).
 */
@Timeout(30)
class WanEmulatorTest {
  private ServerSocket echo;
  private WanEmulator wan;

  @BeforeEach
  void start() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread server = new Thread(() -> {
      while (!echo.isClosed()) {
        try {
          Socket s = echo.accept();
          Thread t = new Thread(() -> {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
              in.transferTo(out); // echoes until the client's end of stream, then closes
            } catch (IOException ignored) {
              // the client went away
            }
          });
          t.setDaemon(true);
          t.start();
        } catch (IOException e) {
          return;
        }
      }
    });
    server.setDaemon(true);
    server.start();
  }

  @AfterEach
  void stop() throws IOException {
    if (wan != null) wan.close();
    echo.close();
  }

  @Test
  void bytesComeBackUnchangedAndTheEndOfStreamPassesBothWays() throws Exception {
    wan = new WanEmulator(0, echo.getLocalPort(), 200, 1);
    byte[] sent = new byte[5 * WanEmulator.MAX_PENDING / 2 + 12_345]; // more than a direction holds, not a chunk multiple
    new Random(7).nextBytes(sent);
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), wan.port())) {
      CompletableFuture<byte[]> back = CompletableFuture.supplyAsync(() -> readAll(s));
      s.getOutputStream().write(sent);
      s.shutdownOutput(); // the echo server sees the end, echoes the rest and closes: the client then reads -1
      assertThat(back.get(20, TimeUnit.SECONDS)).isEqualTo(sent);
    }
  }

  @Test
  void aRoundTripTakesAtLeastTwiceTheOneWayDelay() throws Exception {
    wan = new WanEmulator(0, echo.getLocalPort(), 40, 25);
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), wan.port())) {
      DataInputStream in = new DataInputStream(s.getInputStream());
      for (int i = 0; i < 3; i++) {
        long start = System.nanoTime();
        s.getOutputStream().write(i);
        assertThat(in.read()).isEqualTo(i);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(50);
      }
    }
  }

  @Test
  void oneConnectionMovesNoFasterThanItsCap() throws Exception {
    wan = new WanEmulator(0, echo.getLocalPort(), 20, 0);
    byte[] sent = new byte[4 << 20];
    new Random(8).nextBytes(sent);
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), wan.port())) {
      long start = System.nanoTime();
      CompletableFuture<byte[]> back = CompletableFuture.supplyAsync(() -> readAll(s));
      s.getOutputStream().write(sent);
      s.shutdownOutput();
      assertThat(back.get(20, TimeUnit.SECONDS)).isEqualTo(sent);
      // 4 MiB at 20 MB/s each way is 210 ms; a burst of 64 KiB may go at once per idle spell
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(190);
    }
  }

  @Test
  void connectionsTogetherMoveNoFasterThanTheLinkCap() throws Exception {
    wan = new WanEmulator(0, echo.getLocalPort(), 1000, 0, 20); // each connection alone could go 50x faster
    byte[] sent = new byte[4 << 20];
    new Random(9).nextBytes(sent);
    try (Socket s1 = new Socket(InetAddress.getLoopbackAddress(), wan.port());
        Socket s2 = new Socket(InetAddress.getLoopbackAddress(), wan.port())) {
      long start = System.nanoTime();
      List<CompletableFuture<byte[]>> back = new ArrayList<>();
      for (Socket s : List.of(s1, s2)) {
        back.add(CompletableFuture.supplyAsync(() -> readAll(s)));
        CompletableFuture.runAsync(() -> {
          try {
            s.getOutputStream().write(sent);
            s.shutdownOutput();
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        });
      }
      for (CompletableFuture<byte[]> b : back) assertThat(b.get(20, TimeUnit.SECONDS)).isEqualTo(sent);
      // 8 MiB through a 20 MB/s link is 420 ms; the link may start with 1 MiB in hand (CATCH_UP)
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(360);
    }
  }

  private static byte[] readAll(Socket s) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      s.getInputStream().transferTo(out);
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
