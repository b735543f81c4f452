package io.ferry.store.s3.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.config.Secret;
import io.ferry.support.TokenServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The API-key exchange against a local token endpoint (real HTTP), with a clock the test moves. */
class IbmIamTokensTest {
  /** A clock the test can move forward. */
  static final class MovableClock extends Clock {
    private Instant now = Instant.parse("2026-11-30T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  void exchangesTheKeyOnceAndRefreshesBeforeTheHourIsOver() throws Exception {
    try (TokenServer server = new TokenServer("my-api-key")) {
      MovableClock clock = new MovableClock();
      IbmIamTokens tokens = new IbmIamTokens(server.url(), new Secret("my-api-key"), clock);
      assertThat(tokens.token()).isEqualTo("token-1");
      assertThat(server.forms()).singleElement().asString()
          .contains("grant_type=urn%3Aibm%3Aparams%3Aoauth%3Agrant-type%3Aapikey").contains("apikey=my-api-key");
      clock.advance(Duration.ofMinutes(49));
      assertThat(tokens.token()).as("still valid for 11 minutes: cached").isEqualTo("token-1");
      clock.advance(Duration.ofMinutes(2));
      assertThat(tokens.token()).as("9 minutes left: refreshed before expiry").isEqualTo("token-2");
      assertThat(tokens.exchanges()).isEqualTo(2);
      assertThat(server.issued()).isEqualTo(2);
    }
  }

  @Test
  void aRejectedKeyIsAClearErrorWithoutTheKey() throws Exception {
    try (TokenServer server = new TokenServer("right-key")) {
      IbmIamTokens tokens = new IbmIamTokens(server.url(), new Secret("wrong-key-value"), Clock.systemUTC());
      assertThatThrownBy(tokens::token)
          .hasMessageContaining("failed with HTTP 400: Provided API key could not be found.")
          .hasMessageContaining("check credentials.api-key")
          .hasMessageNotContaining("wrong-key-value");
    }
  }
}
