"""`python -m kiosk.ui.signage --journal PATH`: the players' screen as its own process."""

from kiosk.ui.signage.app import main

if __name__ == "__main__":
    main()
