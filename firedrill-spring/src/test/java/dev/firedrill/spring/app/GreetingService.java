package dev.firedrill.spring.app;

import org.springframework.stereotype.Service;

/** The bean Chaos Monkey's service watcher wraps. */
@Service
public class GreetingService {

  public String greet() {
    return "hello";
  }
}
