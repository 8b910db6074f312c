import BookClubCore

extension BookChoice {
    /// The book a command is about: `reference`, else the scene's selection, else the selected club's
    /// next book, quoted in messages as a shell word.
    init(_ reference: String?, in session: Session) throws {
        self.init(reference: reference, scene: try session.scene().state, now: session.now(), quote: \.shellWord)
    }
}

extension ClubChoice {
    /// The club a command is about: `reference`, else the scene's selected club.
    init(_ reference: String?, in session: Session) throws {
        self.init(reference: reference, scene: try session.scene().state)
    }
}
