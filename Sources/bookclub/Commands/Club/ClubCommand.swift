/// `bookclub club …`: book clubs, their meetings, what to read by when.
enum ClubCommand: CommandGroup {
    static let configuration = CommandConfiguration(
        name: "club",
        abstract: "Book clubs: their meetings, what to read by when.",
        discussion: "Clubs are named like books: an id or id prefix, a name, or words of it.",
        examples: [
            #"bookclub club add "Sci-Fi Club""#, #"bookclub club meeting scifi --date "thursday 19:00" --book dune"#,
            "bookclub club meetings",
        ])
    static let subcommands: [any Command.Type] = [
        ClubAddCommand.self, ClubListCommand.self, ClubShowCommand.self, ClubRenameCommand.self,
        ClubRemoveCommand.self, ClubMeetingCommand.self, ClubMeetingsCommand.self, ClubCancelCommand.self,
        ClubShareCommand.self, ClubJoinCommand.self, ClubMembersCommand.self, ClubAdmitCommand.self,
        ClubHostCommand.self, ClubExpelCommand.self, ClubLeaveCommand.self, ClubLinkCommand.self, ClubPostCommand.self,
        ClubFeedCommand.self, ClubRSVPCommand.self, ClubPollCommand.self, ClubVoteCommand.self, ClubPollsCommand.self,
        ClubCloseCommand.self, ClubPolicyCommand.self, ClubSyncCommand.self,
    ]
}
