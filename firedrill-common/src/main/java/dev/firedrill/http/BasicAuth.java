package dev.firedrill.http;

import java.util.Objects;

/** HTTP basic authentication: a user name (not secret) and where its password is read from. */
public record BasicAuth(String username, Secret password) {

  public BasicAuth {
    Objects.requireNonNull(username, "username");
    Objects.requireNonNull(password, "password");
  }
}
